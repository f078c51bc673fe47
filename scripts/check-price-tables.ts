// Checks every loaded price list of the simulators (src/carriers/sim/prices/) before it is committed:
// `node --import tsx scripts/check-price-tables.ts`. Exits 1, listing each offending cell, when any table is not monotone.
import { priceTableViolations } from '../src/carriers/sim/prices/check.ts';
import { currentPriceLists } from '../src/carriers/sim/prices/current.ts';

let failed = false;
for (const list of currentPriceLists) {
  const violations = priceTableViolations(list);
  const cells = Object.values(list.services).reduce((n, t) => n + Object.values(t).reduce((m, s) => m + s.cents.length, 0), 0);
  process.stdout.write(`${list.carrier}: ${list.source} — ${cells} cells, ${violations.length} violation(s)\n`);
  for (const v of violations) process.stdout.write(`  ${v}\n`);
  failed ||= violations.length > 0;
}
process.exit(failed ? 1 : 0);
