// The trie node cache keeps what reads come back to and lets the nodes a block writes pass through:
// most of them are asked for once more, by the next block on its way to replace them, and never again.
import { expect } from 'chai';
import { NodeCache } from '../../src/storage/node-cache.js';

const PROBATION = 64 * 1024;
const PROTECTED = 256 * 1024;
const node = () => new Uint8Array(500);
const key = (name: string, i = 0) => `${name}-${i}`;

/** Lands `count` nodes nobody asks for: at least twice what probation holds pushes out all it held before. */
function landMany(cache: NodeCache, prefix: string, count = (4 * PROBATION) / 500): void {
  for (let i = 0; i < count; i++) cache.landed(key(prefix, i), node());
}

describe('trie node cache', () => {
  it('keeps a node read from disk and asked for again while blocks land', () => {
    const cache = new NodeCache(PROBATION, PROTECTED);
    const value = node();
    cache.read('live', value);
    expect(cache.get('live')).to.equal(value);
    landMany(cache, 'written');
    expect(cache.get('live')).to.equal(value);
  });

  it('drops a landed node asked for once, as the next block does to replace it', () => {
    const cache = new NodeCache(PROBATION, PROTECTED);
    cache.landed('replaced', node());
    expect(cache.get('replaced')).to.not.equal(undefined);
    landMany(cache, 'written');
    expect(cache.get('replaced')).to.equal(undefined);
  });

  it('keeps a landed node asked for twice', () => {
    const cache = new NodeCache(PROBATION, PROTECTED);
    cache.landed('shared', node());
    cache.get('shared');
    cache.get('shared');
    landMany(cache, 'written');
    expect(cache.get('shared')).to.not.equal(undefined);
  });

  it('drops a node read from disk once and never asked for again', () => {
    const cache = new NodeCache(PROBATION, PROTECTED);
    cache.read('once', node());
    landMany(cache, 'written');
    expect(cache.get('once')).to.equal(undefined);
  });

  it('holds no more nodes asked for again than its protected bound', () => {
    const cache = new NodeCache(PROBATION, PROTECTED);
    const count = (4 * PROTECTED) / 500;
    for (let i = 0; i < count; i++) {
      cache.read(key('hot', i), node());
      cache.get(key('hot', i));
    }
    const kept = Array.from({ length: count }, (_, i) => cache.get(key('hot', i))).filter((value) => value !== undefined).length;
    expect(kept).to.be.greaterThan(0);
    expect(kept * 500).to.be.at.most(PROTECTED);
  });

  it('keeps landed nodes through a longer run while probation is widened, and drops them once it is narrowed', () => {
    const cache = new NodeCache(PROBATION, PROTECTED);
    const narrow = cache.widenProbation(16 * PROBATION);
    cache.landed('ring-slot', node());
    landMany(cache, 'written', (4 * PROBATION) / 500);
    expect(cache.get('ring-slot')).to.not.equal(undefined);
    narrow();
    landMany(cache, 'after');
    expect(cache.get('ring-slot')).to.equal(undefined);
  });
});
