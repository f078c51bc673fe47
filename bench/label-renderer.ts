// The label renderer alone, in this process: labels per second per format, for carriers in turn.
// `node --import tsx bench/label-renderer.ts` prints them; bench/flow.ts compares the whole API flow against it.
import type { LabelData, LabelFormat } from '../src/labels/label-data.ts';
import { renderLabel } from '../src/labels/render.ts';
import { isMain, sampleOrder } from './lib.ts';

// What the flow's labels print: the bench order's addresses and parcel, so the two measures draw the same labels.
const base = {
  from: sampleOrder.ship_from,
  to: sampleOrder.ship_to,
  weightLb: sampleOrder.parcel.weight.value,
  dimensionsIn: { length: sampleOrder.parcel.dimensions.length, width: sampleOrder.parcel.dimensions.width, height: sampleOrder.parcel.dimensions.height },
  shipDate: '2026-11-23',
  zone: '8',
  references: ['1042'],
  isReturn: false,
  sample: true,
};

export const sampleLabels: LabelData[] = [
  { ...base, carrier: 'ups', serviceCode: '03', serviceName: 'UPS Ground', trackingNumber: '1Z1442YY7229014688' },
  { ...base, carrier: 'usps', serviceCode: 'PRIORITY_MAIL', serviceName: 'Priority Mail', trackingNumber: '9400111206206406260787' },
  { ...base, carrier: 'fedex', serviceCode: 'FEDEX_2_DAY', serviceName: 'FedEx 2Day', trackingNumber: '794953535000' },
];

/** Renders labels back to back for the given time, after a short warm-up, and returns labels per second. */
export async function labelsPerSecond(format: LabelFormat, seconds: number, labels: LabelData[] = sampleLabels): Promise<number> {
  for (const d of labels) await renderLabel(d, format);
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) await renderLabel(labels[n++ % labels.length]!, format);
  return n / ((performance.now() - start) / 1000);
}

if (isMain(import.meta.url)) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  for (const format of ['pdf', 'zpl', 'png'] as const) {
    const rate = await labelsPerSecond(format, seconds);
    const sizes = await Promise.all(sampleLabels.map(async (d) => `${d.carrier} ${((await renderLabel(d, format)).length / 1024).toFixed(1)} KB`));
    console.error(`${format.padEnd(4)} ${rate.toFixed(0).padStart(6)} labels/s   ${sizes.join(', ')}`);
  }
}
