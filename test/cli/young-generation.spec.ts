// memory-tuning.ts holds V8's young generation at its launch size through start-up and caps its growth
// under load. Read from fresh child processes: the flags are the process's own, and V8 never shrinks a
// young generation once grown, so only a process that ran nothing else shows what they do.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { YOUNG_GENERATION_MAX_BYTES } from '../../src/memory-tuning.js';

const tuning = new URL('../../src/memory-tuning.js', import.meta.url).href;

interface Sizes {
  launch: number;
  pinned: number;
  grown: number;
}

/** Young generation sizes of a child that allocates like a busy node (objects that outlive a few collections), before and after it lets it grow. */
function youngGeneration(withTuning: boolean): Sizes {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const tuning = ${withTuning} ? await import(${JSON.stringify(tuning)}) : { letYoungGenerationGrow() {} };
    const size = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
    async function churn(rounds) {
      const live = [];
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < 10_000; i++) {
          live.push({ i, pair: [i, i + 1], text: 'x' + i });
          if (live.length > 200_000) live.splice(0, 100_000);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    // V8 alone reaches its largest young generation within ~10 rounds of this: 100 and 200 leave it ample room.
    const launch = size();
    await churn(100);
    const pinned = size();
    tuning.letYoungGenerationGrow();
    await churn(200);
    process.stdout.write(JSON.stringify({ launch, pinned, grown: size() }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('.', import.meta.url)), encoding: 'utf8' });
  return JSON.parse(out) as Sizes;
}

describe('young generation sizing (child processes)', function () {
  this.timeout(30_000);

  it('V8 alone grows it past the cap under this load (the control)', () => {
    const { launch, grown } = youngGeneration(false);
    expect(grown).to.be.greaterThan(YOUNG_GENERATION_MAX_BYTES);
    expect(grown).to.be.greaterThan(launch);
  });

  it('stays at its launch size until the node lets it grow', () => {
    const { launch, pinned } = youngGeneration(true);
    // At launch V8 has committed one of the two semi-spaces; the first collection commits the other.
    expect(pinned).to.be.at.most(2 * launch);
  });

  it('then grows under load, up to the cap and no further', () => {
    const { pinned, grown } = youngGeneration(true);
    expect(grown).to.be.greaterThan(pinned);
    expect(grown).to.equal(YOUNG_GENERATION_MAX_BYTES);
  });
});
