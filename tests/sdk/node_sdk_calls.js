// Drives the provider's official JavaScript SDK (npm `upyun`, pinned in package.json), unmodified,
// through the calls tests/sdk/test_official_sdks.py checks. The SDK is pointed at its own default
// host over plain HTTP, through the test's forward proxy (its documented `proxy` option), which
// translates the provider's word and the host for the sandbox.
//
// Usage: node node_sdk_calls.js '<json config>'; config: service, operator, password,
// proxyPort, blockFile (a local file for blockUpload), purgeUrls.
// Prints one JSON object: operation name -> {ok: true, value} or {ok: false, error, code}.
// An operation that throws does not stop the ones after it, so every result is reported.
'use strict';

const upyun = require('upyun');

const config = JSON.parse(process.argv[2]);
const LIST_END = 'g2gCZAAEbmV4dGQAA2VvZg';
const DIR = '/sdk-node';

const service = new upyun.Service(config.service, config.operator, config.password);
const client = new upyun.Client(service, {
  protocol: 'http', // the proxy is a plain HTTP forward proxy; the SDK's host stays its default
  proxy: { protocol: 'http', host: '127.0.0.1', port: config.proxyPort },
});

const results = {};

async function run(name, call) {
  try {
    results[name] = { ok: true, value: await call() };
  } catch (error) {
    results[name] = { ok: false, error: String(error.message), code: error.code || null };
  }
}

async function listAllPages(dir, limit) {
  const pages = [];
  let iter = '';
  // Bounded: a listing that never reaches the end marker fails the test instead of hanging.
  for (let page = 0; page < 20; page++) {
    const answer = await client.listDir(dir, { limit, iter });
    pages.push(answer.files.map((file) => `${file.name}\t${file.type}\t${file.size}`));
    iter = answer.next;
    if (iter === LIST_END) break;
  }
  return { pages, last: iter };
}

async function main() {
  await run('makeDir', () => client.makeDir(`${DIR}/folder`));
  await run('putFile', () => client.putFile(`${DIR}/hello.txt`, 'hello from node', {
    'Content-Type': 'text/plain',
    'x-upyun-meta-owner': 'alice',
  }));
  await run('headFile', () => client.headFile(`${DIR}/hello.txt`));
  await run('getFile', () => client.getFile(`${DIR}/hello.txt`));
  await run('putPageFiles', async () => {
    for (const name of ['p1.txt', 'p2.txt', 'p3.txt']) {
      await client.putFile(`${DIR}/${name}`, `page file ${name}`);
    }
    return true;
  });
  await run('listDir', () => listAllPages(DIR, 2));
  await run('usage', () => client.usage());
  await run('updateMetadata', () => client.updateMetadata(`${DIR}/hello.txt`, { owner: 'bob', team: 'ops' }));
  await run('getMetadata', () => client.getMetadata(`${DIR}/hello.txt`));
  await run('blockUpload', () => client.blockUpload(`${DIR}/block.bin`, config.blockFile));
  await run('headBlockFile', () => client.headFile(`${DIR}/block.bin`));
  await run('copy', () => client.copy(`${DIR}/copy.txt`, `${DIR}/hello.txt`));
  await run('headCopy', () => client.headFile(`${DIR}/copy.txt`));
  await run('copyReplace', () => client.copy(`${DIR}/copy-meta.txt`, `${DIR}/hello.txt`, {
    'x-upyun-metadata-directive': 'replace',
    'x-upyun-meta-stage': 'copied',
  }));
  await run('copyReplaceMetadata', () => client.getMetadata(`${DIR}/copy-meta.txt`));
  await run('copyOntoItself', () => client.copy(`${DIR}/hello.txt`, `${DIR}/hello.txt`));
  await run('move', () => client.move(`${DIR}/moved/copy.txt`, `${DIR}/copy.txt`));
  await run('headMoved', () => client.headFile(`${DIR}/moved/copy.txt`));
  await run('headMoveSource', () => client.headFile(`${DIR}/copy.txt`));
  await run('moveFolder', () => client.move(`${DIR}/elsewhere`, `${DIR}/folder`));
  await run('multipartUpload', async () => {
    const started = await client.initMultipartUpload(`${DIR}/parallel.bin`, config.blockFile);
    const ids = [...Array(started.partCount).keys()].reverse();
    const sent = await Promise.all(ids.map((partId) => client.multipartUpload(
      `${DIR}/parallel.bin`, config.blockFile, started.uuid, partId)));
    const completed = await client.completeMultipartUpload(`${DIR}/parallel.bin`, started.uuid);
    return { partCount: started.partCount, sent, completed };
  });
  await run('headParallel', () => client.headFile(`${DIR}/parallel.bin`));
  await run('deleteFile', () => client.deleteFile(`${DIR}/hello.txt`));
  await run('headMissing', () => client.headFile(`${DIR}/hello.txt`));
  await run('purge', () => client.purge(config.purgeUrls));
  process.stdout.write(JSON.stringify(results));
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
