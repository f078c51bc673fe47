import { Redis, type Result } from 'ioredis';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { decision, MemoryBucketStore, type BucketStore, type RateDecision, type RateLimit } from './rate-limit.ts';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    takeToken(bucket: string, perSecond: number, burst: number): Result<[number, string], Context>;
  }
}

/**
 * The token bucket of MemoryBucketStore as one script, so that no two processes can both spend the last
 * token. The time is the Redis server's: the processes' own clocks may disagree. A bucket that would be
 * full again is no different from a missing one, so it expires then and idle keys cost nothing.
 * Lua's tostring keeps 14 significant digits, enough for milliseconds since 1970 and for fractions of tokens.
 */
const takeTokenLua = `
local perSecond = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if bucket[1] then
  tokens = math.min(burst, tonumber(bucket[1]) + math.max(0, now - tonumber(bucket[2])) / 1000 * perSecond)
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perSecond * 1000))
return { allowed, tostring(tokens) }
`;

/** A request waits no longer than this for Redis; Redis next door answers in well under a millisecond. */
const commandTimeoutMs = 250;
/** While Redis is unreachable, one warning this often rather than one per request. */
const warnEveryMs = 10_000;

export interface RedisBucketStoreOptions {
  url: string;
  /** Put before every key, so that several deployments (or test runs) can share one Redis. */
  prefix: string;
  log: Logger;
  metrics: Registry;
}

/**
 * Token buckets in Redis, shared by every process that serves one deployment. When Redis does not answer
 * in time, the request is judged by this process's own bucket instead: a limiter that is down must not
 * refuse the API's callers, and the per-process limit still holds back a runaway client meanwhile.
 */
export class RedisBucketStore implements BucketStore {
  private readonly client: Redis;
  private readonly local: MemoryBucketStore;
  private readonly judgedLocally: Counter;
  private down = false;
  private lastWarningAt = -Infinity;
  private judgedLocallySinceWarning = 0;

  constructor(private readonly options: RedisBucketStoreOptions) {
    this.local = new MemoryBucketStore();
    this.client = new Redis(options.url, {
      lazyConnect: true,
      connectTimeout: 2_000,
      commandTimeout: commandTimeoutMs,
      // While disconnected a take fails at once instead of queueing, and one cut off mid-way is not sent
      // again: it may have spent a token already.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      scripts: { takeToken: { lua: takeTokenLua, numberOfKeys: 1 } },
    });
    this.client.on('error', (err: Error) => this.unavailable(err));
    this.client.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      options.log.info('Redis answers again: rate limits are shared again');
    });
    this.judgedLocally = new Counter({
      name: 'shipd_rate_limit_local_total',
      help: "Requests judged by this process's own rate-limit bucket because Redis did not answer in time",
      registers: [options.metrics],
    });
    const client = this.client;
    new Gauge({
      name: 'shipd_rate_limit_redis_up',
      help: 'Whether the connection to Redis for shared rate limits is ready (1) or not (0)',
      registers: [options.metrics],
      collect() {
        this.set(client.status === 'ready' ? 1 : 0);
      },
    });
  }

  /** Connects before the first request so that it is judged by the shared bucket; a failure was already warned of by the error event. */
  async connect(): Promise<void> {
    await this.client.connect().catch(() => undefined);
  }

  async take(key: string, now: number, limit: RateLimit): Promise<RateDecision> {
    try {
      const [allowed, left] = await this.client.takeToken(`${this.options.prefix}ratelimit:${key}`, limit.perSecond, limit.burst);
      return decision(allowed === 1, Number(left), limit);
    } catch (err) {
      this.judgedLocally.inc();
      this.judgedLocallySinceWarning++;
      this.unavailable(err as Error);
      return this.local.take(key, now, limit);
    }
  }

  close(): void {
    this.client.disconnect();
  }

  private unavailable(err: Error): void {
    this.down = true;
    const now = Date.now();
    if (now - this.lastWarningAt < warnEveryMs) return;
    this.lastWarningAt = now;
    this.options.log.warn(
      { error: err.message, judged_locally: this.judgedLocallySinceWarning },
      'Redis does not answer: each process limits keys and addresses on its own until it does',
    );
    this.judgedLocallySinceWarning = 0;
  }
}
