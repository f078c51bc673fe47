import type { Registry } from 'prom-client';

/** Upper bounds of the latency histogram's buckets, in seconds. */
const bounds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const requestsName = 'shipd_http_requests_total';
const durationName = 'shipd_http_request_duration_seconds';

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Answers in each bucket alone (the last: above every bound); /metrics adds them up. */
  perBucket: Float64Array;
}

interface Value {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * shipd_http_requests_total and shipd_http_request_duration_seconds by method, route and status, as prom-client's
 * Counter and Histogram would write them, but counted with a few additions per answer. prom-client's find each
 * answer's series by copying, checking and hashing its labels, twice: a tenth of an authenticated GET's time (issue
 * 31). Here the series is found through maps keyed by the route, status and method themselves, strings Fastify and
 * Node reuse for every request, and the sums are made only when /metrics is read.
 */
export class AnswerMetrics {
  private readonly byRoute = new Map<string, Map<number, Map<string, Series>>>();

  constructor(registry: Registry) {
    const metric = (name: string, help: string, type: 'counter' | 'histogram', values: () => Value[]) => ({
      name,
      help,
      type,
      aggregator: 'sum' as const,
      get: async () => ({ name, help, type, aggregator: 'sum' as const, values: values() }),
      reset: () => this.byRoute.clear(),
    });
    const register = (m: ReturnType<typeof metric>) => registry.registerMetric(m as unknown as Parameters<Registry['registerMetric']>[0]);
    register(metric(requestsName, 'HTTP requests answered', 'counter', () => this.all().map((s) => ({ labels: s.labels, value: s.count }))));
    register(metric(durationName, 'Time to answer HTTP requests', 'histogram', () => this.all().flatMap((s) => histogramValues(s))));
  }

  /** Counts an answer; `route` is undefined when no route matched, and such answers share one series. */
  observe(method: string, status: number, route: string | undefined, seconds: number): void {
    // Unmatched URLs share one series, so that scanners cannot blow up the number of series.
    const path = route ?? 'unmatched';
    let byStatus = this.byRoute.get(path);
    if (!byStatus) this.byRoute.set(path, (byStatus = new Map()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map()));
    let series = byMethod.get(method);
    if (!series) {
      series = { labels: { method, route: path, status: String(status) }, count: 0, sum: 0, perBucket: new Float64Array(bounds.length + 1) };
      byMethod.set(method, series);
    }
    series.count++;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > bounds[bucket]!) bucket++;
    series.perBucket[bucket]!++;
  }

  private all(): Series[] {
    return [...this.byRoute.values()].flatMap((byStatus) => [...byStatus.values()].flatMap((byMethod) => [...byMethod.values()]));
  }
}

/** A series' cumulative buckets, then its sum and count, as the Prometheus text format lists a histogram. */
function histogramValues(s: Series): Value[] {
  let cumulative = 0;
  const values: Value[] = bounds.map((le, i) => {
    cumulative += s.perBucket[i]!;
    return { metricName: `${durationName}_bucket`, labels: { le, ...s.labels }, value: cumulative };
  });
  values.push({ metricName: `${durationName}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count });
  values.push({ metricName: `${durationName}_sum`, labels: s.labels, value: s.sum });
  values.push({ metricName: `${durationName}_count`, labels: s.labels, value: s.count });
  return values;
}
