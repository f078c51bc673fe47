import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadConfig } from '../../src/config.ts';
import { createTestDatabase, runCli, type TestDatabase } from '../harness.ts';
import { bootstrapKey, freePort, startShipd, type Shipd } from '../shipd-process.ts';
import { startReceiver, verify, type Receiver } from '../webhook-receiver.ts';
import { documents, fences, readDocument, type Fence } from './markdown.ts';
import { misfits, parseShown, printedValues } from './shown-json.ts';
import { Shell } from './shell.ts';

// The documents' examples are tests: every sh block with curl in README.md and docs/*.md runs, in document order,
// in one bash per document, against a fresh shipd, and must answer with the statuses and JSON the document shows.
//
// What the documents write, and what this test does with it:
// - `<!-- status: 201 -->` right above a block: every curl call in it answers 201; `<!-- status: 201 200 -->`: the
//   calls answer these, in order. Without it, every call must answer 2xx.
// - a ```json block right after a block: the last JSON the block printed must fit it (see shown-json.ts).
// - `<!-- not run: why -->` right above a block with curl: it is not run (a live key's, say).
// - `<!-- server output -->` right above a block: `npm start`'s first start prints it.
// - `http://localhost:8080` becomes this server's port, as the README says it does when shipd runs on another;
//   `svc_test_...`, which the reader replaces with the key `npm start` printed, becomes that key;
//   `https://example.com/hooks/shipd`, which the reader replaces with an endpoint of theirs, becomes a receiver here.
// The README's quick start runs with the key the first start printed; each guide with a key of its own, made by the
// command the README gives for another, so that each sees only what it made (lists, manifests).

let database: TestDatabase;
let shipd: Shipd;
let publicUrl: string;

before(async () => {
  const jq = spawnSync('jq', ['--version']);
  assert.equal(jq.status, 0, 'the documents use jq: install it (apt-get install jq)');
  database = await createTestDatabase();
  const port = await freePort();
  shipd = await startShipd(port, {
    ...database.env,
    // As npm start runs: a label can be voided for as long as a reader needs (startShipd shortens it for other tests).
    SHIPD_SIM_FIRST_SCAN_MINUTES: String(loadConfig({}).simFirstScanAfterMs / 60_000),
    // What the ops helpers guide tells its reader to set.
    SHIPD_FEATURES: 'batches,manifests,pickups',
    // The receiver standing in for the reader's endpoint is on this machine, as the webhooks guide allows with this.
    SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true',
  });
  publicUrl = `http://localhost:${port}`;
});

after(async () => {
  shipd.child.kill('SIGTERM');
  await shipd.closed;
  await database.drop();
});

type Directive = { status: number[] } | { notRun: string } | { serverOutput: true } | Record<string, never>;

function directive(fence: Fence, where: string): Directive {
  const comment = fence.comment;
  if (comment === null) return {};
  const status = /^status:((?:\s+\d{3})+)$/.exec(comment);
  if (status) return { status: status[1]!.trim().split(/\s+/).map(Number) };
  const notRun = /^not run:\s*(\S.*)$/.exec(comment);
  if (notRun) return { notRun: notRun[1]! };
  if (comment === 'server output') return { serverOutput: true };
  throw new Error(`${where}: unknown comment above a block: <!-- ${comment} -->`);
}

const runnable = (fence: Fence) => (fence.lang === 'sh' || fence.lang === 'bash') && /\bcurl\b/.test(fence.text);

function substitute(text: string, values: Record<string, string>): string {
  return Object.entries(values).reduce((t, [from, to]) => t.replaceAll(from, to), text);
}

/** Runs a document's examples in the shell, in order, checking each; returns how many ran. */
async function runExamples(path: string, shell: Shell, values: Record<string, string>): Promise<number> {
  const all = fences(readDocument(path));
  let ran = 0;
  for (const [i, fence] of all.entries()) {
    const where = `${path}:${fence.line}`;
    const told = directive(fence, where);
    if ('serverOutput' in told) {
      const pattern = fence.text.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\S*');
      assert.match(shipd.stdout(), new RegExp(pattern), `${where}: the first start's output differs`);
      continue;
    }
    if (!runnable(fence)) {
      assert.ok(!('status' in told), `${where}: a status above a block that does not run`);
      continue;
    }
    if ('notRun' in told) continue;
    const result = await shell.run(substitute(fence.text, values));
    const context = `${where}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
    ran++;
    assert.equal(result.code, 0, `${context}\nthe block's last command failed`);
    assert.equal(result.stderr, '', `${context}\nthe block wrote to stderr`);
    assert.ok(result.statuses.length > 0, `${context}\nno curl call answered`);
    if ('status' in told && told.status.length > 1) {
      assert.deepEqual(result.statuses, told.status, `${context}\nstatuses`);
    } else {
      const wanted = 'status' in told ? told.status[0]! : undefined;
      for (const status of result.statuses) {
        assert.ok(wanted === undefined ? status >= 200 && status < 300 : status === wanted, `${context}\nstatuses ${result.statuses.join(' ')}, shown ${wanted ?? '2xx'}`);
      }
    }
    const answer = all[i + 1];
    if (answer?.lang === 'json' && answer.followsFence) {
      const printed = printedValues(result.stdout);
      assert.ok(printed.length > 0, `${context}\nprinted no JSON, though ${path}:${answer.line} shows an answer`);
      const wrong = misfits(parseShown(substitute(answer.text, values)), printed.at(-1));
      assert.deepEqual(wrong, [], `${context}\nthe answer differs from ${path}:${answer.line}`);
    }
  }
  return ran;
}

async function withShell<T>(env: Record<string, string>, use: (shell: Shell, receiver: Receiver) => Promise<T>): Promise<T> {
  const receiver = await startReceiver();
  const shell = new Shell(env);
  try {
    return await use(shell, receiver);
  } finally {
    await shell.close();
    await receiver.close();
  }
}

const values = (receiver: Receiver, key: string) => ({
  'http://localhost:8080': publicUrl,
  'https://example.com/hooks/shipd': receiver.url,
  'svc_test_...': key,
});

test("README: the quick start, followed as written, answers as it shows, and the webhook hears what it says", async () => {
  const key = bootstrapKey(shipd);
  assert.ok(key, `npm start printed no key: ${shipd.stdout()}`);
  await withShell({}, async (shell, receiver) => {
    assert.ok((await runExamples('README.md', shell, values(receiver, key))) >= 8, 'the quick start ran fewer blocks than its steps');
    const saved = (file: string) => JSON.parse(readFileSync(join(shell.cwd, file), 'utf8'));
    const { secret } = saved('webhook.json');
    const [order, outbound, returned] = [saved('order.json').id, saved('shipment.json').id, saved('return.json').id];
    const heard = () => receiver.received.map((r) => verify(secret, r)).map((e) => `${e.type} ${e.data.id}`);
    const promised = [`shipment.created ${returned}`, `shipment.voided ${returned}`, `shipment.voided ${outbound}`, `order.updated ${order}`];
    await receiver.waitFor(() => promised.every((p) => heard().includes(p))).catch(() => assert.fail(`the endpoint heard ${heard().join(', ')}`));
  });
});

/** A new key, made by the command the README gives for one. */
async function anotherKey(): Promise<string> {
  const command = /`npx shipd (keys create [^`]+)`/.exec(readDocument('README.md'));
  assert.ok(command, 'README gives no `npx shipd keys create …` command');
  const made = await runCli(command[1]!.split(' '), database.env);
  assert.equal(made.code, 0, made.stderr);
  return made.stdout.trim();
}

test('README: the command it gives for another key makes one that works', async () => {
  const res = await fetch(`${shipd.url}/api/integrations/v1/carriers`, { headers: { authorization: `Bearer ${await anotherKey()}` } });
  assert.equal(res.status, 200);
});

for (const path of documents().filter((p) => p !== 'README.md')) {
  test(`${path}: its examples answer as it shows`, async () => {
    const key = await anotherKey();
    await withShell({ SHIPD_KEY: key }, (shell, receiver) => runExamples(path, shell, values(receiver, key)));
  });
}
