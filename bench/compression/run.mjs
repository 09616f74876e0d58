// Compressed answers, measured: bytes on the wire and time to interactive in Chromium on a
// throttled "slow 4G" link, for the landing page, the project list and a 2,000-page
// project, with docsd's compression off (the peer: docsd before issue 19.4, every answer
// identity) and on; then docsd's CPU per answer of the 2,000-page list in each coding.
// Usage: node bench/compression/run.mjs   (needs build/bin/docsd, web/dist, Chromium)
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { launchBrowser, newPage } from '../../web/e2e/support/browser.mjs';
import { startDocsd } from '../../web/e2e/support/server.mjs';
import { addBigTree, api, signInByEmail } from '../../web/e2e/support/flows.mjs';

// Lighthouse's "slow 4G" as DevTools applies it: 562.5 ms round trip, 1.47 Mbit/s down,
// 675 kbit/s up.
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 300);

// The docsd serving `dataDir` (its environment names it), for its CPU time.
function docsdPid(dataDir) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes('docsd') || !cmd.includes('serve')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`DOCS_DATA_DIR=${dataDir}`)) return Number(entry);
    } catch {}
  }
  throw new Error('docsd process not found');
}
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;  // utime + stime, in clock ticks of 10 ms
}

function get(url, headers) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers, agent: keepAlive }, (res) => {
      let bytes = 0;
      res.on('data', (d) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode, bytes, encoding: res.headers['content-encoding'] ?? '' }));
    }).on('error', reject);
  });
}
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

// One cold load of `path` in a fresh context: bytes the network carried (headers and
// bodies, every request) and when `readyCheck` first held (ms after navigation starts).
async function load(browser, url, storageState, readyCheck) {
  const page = await newPage(browser, storageState ? { storageState } : {});
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  let wire = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e) => { wire += e.encodedDataLength; requests += 1; });
  await page.addInitScript(`(() => {
    const ready = ${readyCheck};
    const watch = new MutationObserver(() => {
      if (window.__readyAt || !ready()) return;
      requestAnimationFrame(() => (window.__readyAt = performance.now()));
      watch.disconnect();
    });
    watch.observe(document, { childList: true, subtree: true, characterData: true });
  })()`);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__readyAt, null, { timeout: 120_000, polling: 100 });
  const readyAt = await page.evaluate(() => window.__readyAt);
  await page.waitForLoadState('networkidle');
  await page.context().close();
  return { wire, requests, readyAt };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const results = {};
const browser = await launchBrowser();
for (const mode of ['off', 'on']) {
  const server = await startDocsd({ DOCS_SERVER_COMPRESSION: mode === 'on' ? 'true' : 'false', DOCS_LOG_ACCESS: 'false', DOCS_LOG_LEVEL: 'warn' });
  try {
    const setup = await newPage(browser);
    await signInByEmail(setup, server);
    const id = (await api(setup, 'POST', '/api/project', { name: 'Big' })).body.id;
    await addBigTree(setup, id);
    const storageState = await setup.context().storageState();
    const token = await setup.evaluate(() => localStorage.getItem('auth-jwt'));
    await setup.context().close();

    const scenes = {
      landing: [`${server.url}/`, null, `() => [...document.querySelectorAll('h1')].some((h) => h.textContent.includes('Automate your documentation'))`],
      'project list': [`${server.url}/projects`, storageState, `() => [...document.querySelectorAll('.project-card__name')].some((a) => a.textContent === 'Big')`],
      '2,000-page project': [`${server.url}/projects/${id}`, storageState, `() => document.querySelectorAll('.page-tree__name').length > 0 && !!document.querySelector('.project-view__page-title')`],
    };
    for (const [name, [url, state, check]] of Object.entries(scenes)) {
      const runs = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await load(browser, url, state, check));
      results[name] ??= {};
      results[name][mode] = { wire: median(runs.map((r) => r.wire)), readyAt: median(runs.map((r) => r.readyAt)), requests: runs[0].requests };
      console.log(`${mode.padEnd(3)} ${name}: ${results[name][mode].wire} bytes in ${results[name][mode].requests} requests, interactive at ${Math.round(results[name][mode].readyAt)} ms (median of ${RUNS})`);
    }

    if (mode === 'on') {
      const pid = docsdPid(server.dataDir);
      const list = `${server.url}/api/project?projectId=${id}`;
      for (const coding of ['identity', 'gzip', 'br']) {
        const headers = { Authorization: `Bearer ${token}`, 'Accept-Encoding': coding };
        const first = await get(list, headers);
        for (let i = 0; i < 20; i += 1) await get(list, headers);  // warm
        const before = cpuSeconds(pid);
        const started = process.hrtime.bigint();
        for (let i = 0; i < CPU_REQUESTS; i += 1) await get(list, headers);
        const cpu = cpuSeconds(pid) - before;
        const wall = Number(process.hrtime.bigint() - started) / 1e9;
        results.cpu ??= {};
        results.cpu[coding] = { bytes: first.bytes, encoding: first.encoding, cpuMs: (cpu * 1000) / CPU_REQUESTS, wallMs: (wall * 1000) / CPU_REQUESTS };
        console.log(`cpu ${coding}: ${first.bytes} bytes (${first.encoding || 'identity'}), docsd CPU ${results.cpu[coding].cpuMs.toFixed(2)} ms per answer, ${results.cpu[coding].wallMs.toFixed(2)} ms per request on loopback`);
      }
    }
  } finally {
    await server.stop();
  }
}
await browser.close();
keepAlive.destroy();

console.log('\n| screen | bytes off | bytes on | on / off | interactive off | interactive on |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const name of ['landing', 'project list', '2,000-page project']) {
  const { off, on } = results[name];
  console.log(`| ${name} | ${off.wire.toLocaleString('en')} | ${on.wire.toLocaleString('en')} | ${(on.wire / off.wire).toFixed(2)} | ${(off.readyAt / 1000).toFixed(2)} s | ${(on.readyAt / 1000).toFixed(2)} s |`);
}
