import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface BlockRun {
  stdout: string;
  /** What the block wrote to stderr, besides the statuses. */
  stderr: string;
  /** The HTTP status of every curl call the block made, in order. */
  statuses: number[];
  /** The exit status of the block's last command. */
  code: number;
}

const statusLine = /^__HTTP_STATUS__ (\d{3})$/;

// Every curl call also writes its answer's status to stderr, where the reader's terminal would not show it: the
// wrapper is a shell function, so it holds in pipes and $(…) alike.
const prelude = `curl() { command curl --write-out '%{stderr}__HTTP_STATUS__ %{http_code}\\n' "$@"; }\n`;

/**
 * One bash, as a reader's terminal: the blocks run in it one after another, so what one sets (ORDER=…) the next
 * uses, and files they write land in its own directory.
 */
export class Shell {
  readonly cwd = mkdtempSync(join(tmpdir(), 'shipd-docs-'));
  private readonly scripts = mkdtempSync(join(tmpdir(), 'shipd-docs-blocks-'));
  private readonly child: ChildProcessWithoutNullStreams;
  private stdout = '';
  private stderr = '';
  private blocks = 0;
  private readonly marker = `__BLOCK_DONE_${randomBytes(6).toString('hex')}__`;

  constructor(env: Record<string, string>) {
    this.child = spawn('bash', ['--noprofile', '--norc'], {
      cwd: this.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.cwd, LANG: 'C.UTF-8', ...env },
    });
    this.child.stdout.on('data', (c: Buffer) => (this.stdout += c));
    this.child.stderr.on('data', (c: Buffer) => (this.stderr += c));
    this.child.stdin.write(prelude);
  }

  /** Runs a block as if pasted, except that it reads nothing from the terminal: its stdin is /dev/null. */
  async run(block: string, timeoutMs = 60_000): Promise<BlockRun> {
    const file = join(this.scripts, `block-${++this.blocks}.sh`);
    writeFileSync(file, block + '\n');
    this.stdout = '';
    this.stderr = '';
    this.child.stdin.write(`source ${file} < /dev/null; printf '\\n${this.marker} %s\\n' "$?"; printf '${this.marker}\\n' >&2\n`);
    const done = new RegExp(`\\n${this.marker} (\\d+)\\n$`);
    const until = Date.now() + timeoutMs;
    while (!(done.test(this.stdout) && this.stderr.endsWith(`${this.marker}\n`))) {
      if (this.child.exitCode !== null) throw new Error(`the shell exited (${this.child.exitCode}): ${this.stdout}${this.stderr}`);
      if (Date.now() > until) throw new Error(`the block did not finish within ${timeoutMs} ms; so far: ${this.stdout}${this.stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const code = Number(done.exec(this.stdout)![1]);
    const statuses: number[] = [];
    const otherErr: string[] = [];
    for (const line of this.stderr.slice(0, -`${this.marker}\n`.length).split('\n')) {
      const status = statusLine.exec(line);
      if (status) statuses.push(Number(status[1]));
      else if (line.trim()) otherErr.push(line);
    }
    return { stdout: this.stdout.replace(done, ''), stderr: otherErr.join('\n'), statuses, code };
  }

  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.child.once('close', resolve));
    this.child.stdin.end('exit\n');
    await closed;
    rmSync(this.cwd, { recursive: true, force: true });
    rmSync(this.scripts, { recursive: true, force: true });
  }
}
