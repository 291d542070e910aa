// Drives the provider's official JavaScript SDK (npm `upyun`, pinned in package.json), unmodified,
// through its FORM API upload, `formPutFile`, which tests/sdk/test_official_sdk_forms.py checks.
// The SDK posts the form itself (form-data's submit), bypassing any proxy option, so its
// endpoint (the documented `domain` option) is the test's proxy, which translates the
// provider's word in the form's authorization field and forwards to the sandbox.
//
// Usage: node node_sdk_forms.js '<json config>'; config: service, operator, password,
// proxyPort, image (Base64 of a PNG).
// Prints one JSON object: operation name -> {ok: true, value} or {ok: false, error}.
'use strict';

const upyun = require('upyun');

const config = JSON.parse(process.argv[2]);
const DIR = '/sdk-node-form';

const service = new upyun.Service(config.service, config.operator, config.password);
const client = new upyun.Client(service, {
  protocol: 'http',
  domain: `127.0.0.1:${config.proxyPort}`,
});

const results = {};

async function run(name, call) {
  try {
    results[name] = { ok: true, value: await call() };
  } catch (error) {
    results[name] = { ok: false, error: String(error.message) };
  }
}

async function main() {
  await run('formPutFile', () => client.formPutFile(`${DIR}/hello.txt`,
    Buffer.from('hello form from node'), {}, { filename: 'hello.txt' }));
  await run('formPutFileWithLimits', () => client.formPutFile(`${DIR}/{filename}{.suffix}`,
    Buffer.from('limited'), { 'content-length-range': '1,100', 'allow-file-type': 'txt' }, { filename: 'named.txt' }));
  await run('formPutFileTooLarge', () => client.formPutFile(`${DIR}/large.txt`,
    Buffer.from('more than four bytes'), { 'content-length-range': '0,4' },
    { filename: 'large.txt' }));
  await run('formPutFileThumb', () => client.formPutFile(`${DIR}/thumb.png`,
    Buffer.from(config.image, 'base64'), { 'x-gmkerl-thumb': '/fw/20/format/jpg' },
    { filename: 'thumb.png' }));
  await run('formPutFileApps', () => client.formPutFile(`${DIR}/apps.png`,
    Buffer.from(config.image, 'base64'), {
      apps: [{ name: 'thumb', 'x-gmkerl-thumb': '/fw/20/format/webp',
        save_as: `${DIR}/{filename}_fw20.webp` }],
    }, { filename: 'apps.png' }));
  process.stdout.write(JSON.stringify(results));
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
