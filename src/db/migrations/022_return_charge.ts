import { sql, type Kysely } from 'kysely';

/**
 * When a return label is paid for: `on_create`, as every return label was before, or `on_use`, when the carrier first
 * scans it (the tracking worker charges it then). Null for outbound labels.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('shipments').addColumn('return_charge', 'text').execute();
  await sql`update shipments set return_charge = 'on_create' where is_return = 1`.execute(db);
}
