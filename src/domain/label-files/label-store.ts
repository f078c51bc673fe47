import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { LabelFormat } from '../../labels/label-data.ts';
import { makePrivateDir } from '../../kernel/private-files.ts';
import type { LabelRenderer } from '../../labels/render-pool.ts';

/** A proof of delivery's file, as its carrier sent it: beside the label formats, GIF (UPS's images) and bytes of a kind shipd does not know. */
export type ProofFormat = 'pdf' | 'png' | 'gif' | 'bin';
/** What the store keeps a file as: its name's ending. */
export type StoredFormat = LabelFormat | ProofFormat;

/** Where label files are kept once rendered or bought, so every download serves the same bytes; trackers' proofs of delivery beside them. */
export interface LabelStore {
  get(shipmentId: string, format: StoredFormat): Promise<Buffer | undefined>;
  /** Pass the transaction that completes the purchase where the store can join it. */
  put(db: Kysely<DB>, shipmentId: string, format: StoredFormat, bytes: Buffer, at: string): Promise<void>;
}

/** SQLite's default: files in a directory under the data dir, written whole or not at all. */
export class DirectoryLabelStore implements LabelStore {
  private ready = false;
  /** The labels written last: a printer fetches a label seconds after it is bought. */
  private readonly recent = new Map<string, Buffer>();

  /** Files are written by the label threads (labels/render-pool.ts), off the event loop. */
  constructor(
    private readonly dir: string,
    private readonly files: Pick<LabelRenderer, 'writeFile'>,
  ) {}

  private path(shipmentId: string, format: StoredFormat): string {
    return join(this.dir, `${shipmentId}.${format}`);
  }

  async get(shipmentId: string, format: StoredFormat): Promise<Buffer | undefined> {
    const known = this.recent.get(`${shipmentId}.${format}`);
    if (known) return known;
    try {
      return await readFile(this.path(shipmentId, format));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async put(_db: Kysely<DB>, shipmentId: string, format: StoredFormat, bytes: Buffer): Promise<void> {
    if (!this.ready) {
      makePrivateDir(this.dir);
      this.ready = true;
    }
    await this.files.writeFile(this.path(shipmentId, format), bytes);
    if (this.recent.size >= 256) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(`${shipmentId}.${format}`, bytes);
  }
}

/** PostgreSQL: in the database, so every instance sharing it serves every label. */
export class DatabaseLabelStore implements LabelStore {
  constructor(private readonly db: Kysely<DB>) {}

  async get(shipmentId: string, format: StoredFormat): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom('label_files')
      .select('content')
      .where('shipment_id', '=', shipmentId)
      .where('format', '=', format)
      .executeTakeFirst();
    return row?.content;
  }

  async put(db: Kysely<DB>, shipmentId: string, format: StoredFormat, bytes: Buffer, at: string): Promise<void> {
    await db
      .insertInto('label_files')
      .values({ shipment_id: shipmentId, format, content: bytes, created_at: at })
      .onConflict((oc) => oc.columns(['shipment_id', 'format']).doUpdateSet({ content: bytes, created_at: at }))
      .execute();
  }
}

export function labelStoreFor(database: Database, dataDir: string, files: Pick<LabelRenderer, 'writeFile'>): LabelStore {
  return database.kind === 'postgres' ? new DatabaseLabelStore(database.db) : new DirectoryLabelStore(join(dataDir, 'labels'), files);
}
