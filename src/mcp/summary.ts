// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any answer of the operation table
type Json = Record<string, any>;

/**
 * The one line of text beside a tool's structured answer: what happened, for a person reading the transcript.
 * Answers are told apart by their `object`, so every tool of the same resource reads alike.
 */
export function summarize(result: Json, done?: string): string {
  const verb = done ? ` ${done}` : '';
  switch (result.object) {
    case 'order':
      return `Order ${result.id}${verb} (${result.status})`;
    case 'shipment': {
      const kind = result.is_return ? 'Return label' : 'Label';
      // A label abroad is not ready to ship without its customs forms, so the line names them.
      const forms = result.documents?.length ? `; customs documents: ${result.documents.map((d: Json) => d.type).join(', ')}` : '';
      return `${kind} ${result.id}${verb}: ${result.carrier} ${result.service_name}, tracking ${result.tracking_number} (${result.status})${forms}`;
    }
    case 'rate_shop': {
      const cheapest = result.rates[0];
      const failed = result.errors.length ? `; ${result.errors.length} carrier(s) could not rate` : '';
      const surcharges = cheapest?.surcharges?.length ? ` including ${cheapest.surcharges.map((s: Json) => `${s.type} ${s.amount.amount}`).join(', ')}` : '';
      return cheapest
        ? `${result.rates.length} rate(s), cheapest ${cheapest.carrier} ${cheapest.service_name} at ${cheapest.amount.amount} ${cheapest.amount.currency}${surcharges} (${cheapest.id})${failed}`
        : `No rates${failed}`;
    }
    case 'tracker':
      return `${done ? `Tracker ${result.id}${verb}: ` : ''}${result.carrier} ${result.tracking_number}: ${result.status} (${result.status_detail})`;
    case 'list':
      return `${result.data.length} result(s)${result.has_more ? `; more with cursor ${result.next_cursor}` : ''}`;
  }
  // Address validation, the one answer without an object name.
  return `The address is ${result.valid ? 'valid' : 'not valid'}${result.corrections?.length ? `, with ${result.corrections.length} correction(s)` : ''}`;
}
