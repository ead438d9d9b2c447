import { crc32 } from 'node:zlib';
import { hexToBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import { genesisFileWith } from '../../helpers/genesis-file.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

const OSAKA_PRECOMPILES = 18;

describe('eth_config', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('the dev chain: Osaka in force from genesis, nothing scheduled', async () => {
    const config = await node.call('eth_config', []);
    expect(config.next).to.equal(null);
    expect(config.last).to.equal(null);
    expect(config.current).to.include({ activationTime: 0, chainId: '0x7a69' });
    expect(config.current!.blobSchedule).to.deep.equal({ target: 6, max: 9, baseFeeUpdateFraction: 5007716 });
    expect(Object.keys(config.current!.precompiles)).to.have.length(OSAKA_PRECOMPILES);
    expect(config.current!.precompiles.P256VERIFY).to.equal('0x0000000000000000000000000000000000000100');
    expect(config.current!.systemContracts.BEACON_ROOTS_ADDRESS).to.equal('0x000f3df6d732807ef1319fb7b8bb8522d0beac02');
  });

  it('the fork id of a chain whose forks all start at genesis is the CRC32 of the genesis hash (EIP-6122)', async () => {
    const genesis = (await node.call('eth_getBlockByNumber', ['0x0', false]))!;
    const crc = crc32(hexToBytes(genesis.hash as `0x${string}`));
    expect((await node.call('eth_config', [])).current!.forkId).to.equal(`0x${crc.toString(16).padStart(8, '0')}`);
  });

  it('a chain on an earlier fork: that fork\'s precompiles and system contracts', async () => {
    const cancun = await startTestNode({ hardfork: 'cancun', genesisFlagsGiven: true });
    try {
      const { current } = await cancun.call('eth_config', []);
      expect(current!.precompiles).to.not.have.property('BLS12_G1ADD');
      expect(current!.precompiles).to.have.property('KZG_POINT_EVALUATION');
      expect(Object.keys(current!.systemContracts)).to.deep.equal(['BEACON_ROOTS_ADDRESS']);
      expect(current!.blobSchedule).to.deep.equal({ target: 3, max: 6, baseFeeUpdateFraction: 3338477 });
    } finally {
      await cancun.destroy();
    }
  });

  it('a fork scheduled later: next and last describe it, with its activation time and fork id', async () => {
    const later = 4102444800; // 2100-01-01
    const genesis = await genesisFileWith((config) => {
      config.osakaTime = later;
    });
    const scheduled = await startTestNode({ genesis, genesisFlagsGiven: true });
    try {
      const config = await scheduled.call('eth_config', []);
      expect(config.current!.activationTime).to.equal(0);
      expect(config.current!.precompiles).to.not.have.property('P256VERIFY');
      expect(config.next!.activationTime).to.equal(later);
      expect(config.next!.precompiles).to.have.property('P256VERIFY');
      expect(config.last).to.deep.equal(config.next);
      expect(config.next!.forkId).to.not.equal(config.current!.forkId);
    } finally {
      await scheduled.destroy();
    }
  });
});
