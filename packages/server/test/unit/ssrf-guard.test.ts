/** Live endpoints resolve to public addresses only. No network: every resolver is injected. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkTarget, isPublicAddress, type ResolvedAddress, type Resolver } from '../../src/webhooks/ssrf-guard.js';

/** A resolver that answers from a table and records what it was asked. */
function tableResolver(table: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const found = table[hostname];
    if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolver, { asked });
}

const refusedClasses: Array<[string, string[]]> = [
  ['private (RFC 1918)', ['10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.254', '192.168.1.10']],
  ['loopback', ['127.0.0.1', '127.8.9.10', '::1']],
  ['link-local', ['169.254.169.254', 'fe80::1', 'febf::ffff', 'fe80::1%eth0']],
  ['carrier-grade NAT', ['100.64.0.1', '100.127.255.254']],
  ['multicast', ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff0e::1']],
  ['unspecified', ['0.0.0.0', '0.1.2.3', '::']],
  ['broadcast', ['255.255.255.255']],
  ['reserved (240/4, IETF protocol assignments)', ['240.0.0.1', '192.0.0.8']],
  ['IPv6 unique-local', ['fc00::1', 'fd12:3456:789a::1']],
  ['IPv6 site-local (deprecated)', ['fec0::1']],
  ['documentation', ['192.0.2.1', '198.51.100.7', '203.0.113.200', '2001:db8::1', '3fff::1']],
  ['benchmarking', ['198.18.0.1', '198.19.255.254', '2001:2::1']],
  ['IPv4-mapped IPv6 of a refused IPv4', ['::ffff:10.0.0.1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '::ffff:0.0.0.0']],
  ['IPv4-compatible IPv6 (deprecated)', ['::127.0.0.1', '::10.0.0.1', '::8.8.8.8']],
  ['NAT64 of a private IPv4, and NAT64 local-use', ['64:ff9b::10.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b:1::8.8.8.8']],
  ['6to4 embedding a private or loopback IPv4', ['2002:0a00:0001::1', '2002:7f00:0001::1', '2002:c0a8:0101::1']],
  ['Teredo with a private server or client', ['2001:0:0a00:0001::1', `2001:0:0808:0808::${'f5ff:fffe'}`]],
  ['IPv4-translated IPv6 (::ffff:0:a.b.c.d)', ['::ffff:0:8.8.8.8', '::ffff:0:808:808']],
  ['IPv6 outside 2000::/3', ['4000::1', '100::1', 'e000::1']],
  ['not an IP address at all', ['', 'example.com', '1.2.3', '0x7f.0.0.1', '010.0.0.1', '2130706433', '::ffff:10.0.0.1x']],
];

describe('isPublicAddress', () => {
  for (const [label, addresses] of refusedClasses) {
    it(`refuses ${label}`, () => {
      for (const address of addresses) assert.equal(isPublicAddress(address), false, address);
    });
  }

  it('accepts ordinary public unicast addresses, IPv4 and IPv6', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '41.202.207.1', '196.200.1.1', '2a00:1450:4007:80e::200e', '2001:4860:4860::8888', '2c0f:fb50::1']) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  it('judges an IPv4-mapped IPv6 address by its IPv4 address, in either notation', () => {
    assert.equal(isPublicAddress('::ffff:8.8.8.8'), true);
    assert.equal(isPublicAddress('::ffff:808:808'), true);
    assert.equal(isPublicAddress('::ffff:c0a8:0101'), false);
  });

  it('accepts 6to4, NAT64 and Teredo addresses that embed public IPv4 addresses', () => {
    assert.equal(isPublicAddress('2002:0808:0808::1'), true);
    assert.equal(isPublicAddress('64:ff9b::8.8.8.8'), true);
    // Teredo: server 8.8.8.8, client 1.1.1.1 stored inverted (fefe:fefe).
    assert.equal(isPublicAddress('2001:0:0808:0808:0:0:fefe:fefe'), true);
  });

  it('refuses the private ranges at their exact edges and accepts the neighbours', () => {
    assert.equal(isPublicAddress('172.15.255.255'), true);
    assert.equal(isPublicAddress('172.16.0.0'), false);
    assert.equal(isPublicAddress('172.31.255.255'), false);
    assert.equal(isPublicAddress('172.32.0.0'), true);
    assert.equal(isPublicAddress('100.63.255.255'), true);
    assert.equal(isPublicAddress('100.64.0.0'), false);
    assert.equal(isPublicAddress('100.128.0.0'), true);
    assert.equal(isPublicAddress('11.0.0.0'), true);
    assert.equal(isPublicAddress('9.255.255.255'), true);
  });
});

describe('checkTarget', () => {
  const publicOnly = { allowPrivate: false } as const;

  it('accepts a hostname that resolves to a public address and returns that address', async () => {
    const resolver = tableResolver({ 'hooks.shop.example': ['41.202.207.10'] });
    const result = await checkTarget(new URL('https://hooks.shop.example/akwe'), { ...publicOnly, resolver });
    assert.deepEqual(result, { ok: true, address: '41.202.207.10', family: 4 });
    assert.deepEqual(resolver.asked, ['hooks.shop.example']);
  });

  it('returns the first address when several public ones resolve, IPv6 first if the resolver says so', async () => {
    const resolver = tableResolver({ 'dual.example': ['2001:4860:4860::8888', '8.8.8.8'] });
    assert.deepEqual(await checkTarget(new URL('https://dual.example/'), { ...publicOnly, resolver }), { ok: true, address: '2001:4860:4860::8888', family: 6 });
  });

  it('refuses a hostname when ANY resolved address is not public, wherever it stands', async () => {
    const resolver = tableResolver({ 'mixed.example': ['8.8.8.8', '10.0.0.5'], 'mixed6.example': ['fd00::5', '8.8.8.8'] });
    const first = await checkTarget(new URL('https://mixed.example/'), { ...publicOnly, resolver });
    assert.equal(first.ok, false);
    assert.match(first.ok ? '' : first.reason, /mixed\.example resolves to 10\.0\.0\.5, which is private/);
    const second = await checkTarget(new URL('https://mixed6.example/'), { ...publicOnly, resolver });
    assert.equal(second.ok, false);
    assert.match(second.ok ? '' : second.reason, /fd00::5.*unique-local/);
  });

  it('refuses a hostname resolving to an IPv4-mapped IPv6 form of a private address', async () => {
    const resolver = tableResolver({ 'sneaky.example': ['::ffff:192.168.0.1'] });
    const result = await checkTarget(new URL('https://sneaky.example/'), { ...publicOnly, resolver });
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.reason, /IPv4-mapped.*192\.168\.0\.1.*private/);
  });

  it('takes IP literals as they are, without asking the resolver, brackets removed for IPv6', async () => {
    const resolver = tableResolver({});
    assert.deepEqual(await checkTarget(new URL('https://8.8.8.8/hook'), { ...publicOnly, resolver }), { ok: true, address: '8.8.8.8', family: 4 });
    assert.deepEqual(await checkTarget(new URL('https://[2001:4860:4860::8888]:8443/'), { ...publicOnly, resolver }), {
      ok: true,
      address: '2001:4860:4860::8888',
      family: 6,
    });
    assert.deepEqual(resolver.asked, []);
  });

  it('refuses private and loopback IP literals, including the forms the URL parser normalises', async () => {
    for (const [url, address] of [
      ['http://10.0.0.1/', '10.0.0.1'],
      ['http://127.0.0.1:8080/', '127.0.0.1'],
      ['http://[::1]/', '::1'],
      ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
      ['http://2130706433/', '127.0.0.1'],
      ['http://0x7f.1/', '127.0.0.1'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ] as const) {
      const result = await checkTarget(new URL(url), publicOnly);
      assert.equal(result.ok, false, url);
      assert.match(result.ok ? '' : result.reason, new RegExp(`^${address.replace(/[.]/g, '\\.')} is `), url);
    }
  });

  it('lets loopback and private targets through when allowPrivate is set', async () => {
    const resolver = tableResolver({ localhost: ['127.0.0.1', '::1'], 'intranet.test': ['10.1.2.3'] });
    const options = { allowPrivate: true, resolver };
    assert.deepEqual(await checkTarget(new URL('http://localhost:3000/'), options), { ok: true, address: '127.0.0.1', family: 4 });
    assert.deepEqual(await checkTarget(new URL('http://intranet.test/'), options), { ok: true, address: '10.1.2.3', family: 4 });
    assert.deepEqual(await checkTarget(new URL('http://[::1]:3000/'), options), { ok: true, address: '::1', family: 6 });
    assert.equal((await checkTarget(new URL('http://localhost:3000/'), { allowPrivate: false, resolver })).ok, false);
  });

  it('answers ok:false, without throwing, when the resolver fails or finds nothing', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('queryA ETIMEOUT'), { code: 'ETIMEOUT' });
    };
    const failed = await checkTarget(new URL('https://slow.example/'), { ...publicOnly, resolver: failing });
    assert.deepEqual(failed, { ok: false, reason: 'cannot resolve slow.example: ETIMEOUT' });

    const unknown = await checkTarget(new URL('https://nowhere.example/'), { ...publicOnly, resolver: tableResolver({}) });
    assert.deepEqual(unknown, { ok: false, reason: 'cannot resolve nowhere.example: ENOTFOUND' });

    const empty = await checkTarget(new URL('https://empty.example/'), { allowPrivate: true, resolver: tableResolver({ 'empty.example': [] }) });
    assert.equal(empty.ok, false);

    const junk = await checkTarget(new URL('https://junk.example/'), { allowPrivate: true, resolver: tableResolver({ 'junk.example': ['not-an-ip'] }) });
    assert.equal(junk.ok, false);
  });

  it('refuses schemes other than http and https', async () => {
    for (const url of ['ftp://8.8.8.8/', 'file:///etc/passwd', 'gopher://8.8.8.8/', 'ws://8.8.8.8/']) {
      const result = await checkTarget(new URL(url), { allowPrivate: true });
      assert.equal(result.ok, false, url);
      assert.match(result.ok ? '' : result.reason, /scheme/, url);
    }
  });

  it('refuses URLs with credentials, even to an allowed host', async () => {
    for (const url of ['https://user:pass@8.8.8.8/', 'https://user@8.8.8.8/', 'https://:secret@8.8.8.8/']) {
      assert.deepEqual(await checkTarget(new URL(url), { allowPrivate: true }), { ok: false, reason: 'credentials in the URL are not allowed' }, url);
    }
  });
});
