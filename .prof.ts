import { vectorBarcode } from './src/labels/vector-barcodes.ts';
import { sampleLabels } from './bench/label-renderer.ts';
import { layoutLabel } from './src/labels/layout.ts';
import { writePdf } from './src/labels/pdf.ts';
for (const d of sampleLabels) {
  for (const item of layoutLabel(d)) if (item.kind === 'barcode') {
    vectorBarcode(item.symbol);
    const t = performance.now(); for (let i = 0; i < 20; i++) vectorBarcode(item.symbol); console.error(item.symbol.type, ((performance.now() - t) / 20).toFixed(2), 'ms');
  }
  const items = layoutLabel(d).filter((i) => i.kind !== 'barcode');
  await writePdf(items, new Date());
  let t = performance.now(); for (let i = 0; i < 20; i++) await writePdf(items, new Date()); console.error('pdf text only', ((performance.now() - t) / 20).toFixed(2), 'ms');
  const all = layoutLabel(d);
  t = performance.now(); for (let i = 0; i < 20; i++) await writePdf(all, new Date()); console.error('pdf all', ((performance.now() - t) / 20).toFixed(2), 'ms');
}
