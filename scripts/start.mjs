#!/usr/bin/env node
// `npm start` and `npm run cli`: builds what changed (see build-if-stale.mjs), then runs the CLI in
// this same process — one Node start-up instead of two, and no compiler run when nothing changed.
import { buildIfStale } from './build-if-stale.mjs';

if (buildIfStale()) await import(new URL('../dist/src/cli.js', import.meta.url).href);
else process.exitCode = 1;
