// The body of a label thread (see render-pool.ts): renders each label or customs document it is sent and posts the
// bytes back, and writes label files whole. The drawing libraries load with the first drawing, so a thread that
// only writes files (live labels come drawn by their carrier) stays small.
import { parentPort } from 'node:worker_threads';
import type { JobMessage, JobReply } from '../job-thread.ts';
import type { CustomsDocumentData, CustomsDocumentType } from './customs-data.ts';
import type { LabelData, LabelFormat } from './label-data.ts';
import { writeWhole } from './write-whole.ts';

export type RenderJob = { data: LabelData; format: LabelFormat } | { document: CustomsDocumentType; data: CustomsDocumentData };
export type WriteJob = { write: string; bytes: Uint8Array };
export type LabelJob = RenderJob | WriteJob;

const port = parentPort!;
const fail = (id: number, err: unknown) => port.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies JobReply<null>);

let drawing: Promise<[typeof import('./render.ts'), typeof import('./customs-documents.ts')]> | undefined;

async function draw(job: RenderJob): Promise<Uint8Array> {
  const [labels, documents] = await (drawing ??= Promise.all([import('./render.ts'), import('./customs-documents.ts')]));
  return 'document' in job ? documents.renderCustomsDocument(job.document, job.data) : labels.renderLabel(job.data, job.format);
}

port.on('message', ({ id, job }: JobMessage<LabelJob>) => {
  if ('write' in job) {
    try {
      writeWhole(job.write, job.bytes);
      port.postMessage({ id, result: null } satisfies JobReply<null>);
    } catch (err) {
      fail(id, err);
    }
    return;
  }
  draw(job).then((bytes) => {
    // A buffer that owns its whole memory moves to the main thread without a copy; a slice of Node's shared pool
    // cannot be moved, and is copied.
    const owns = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    port.postMessage({ id, result: bytes } satisfies JobReply<Uint8Array>, owns ? [bytes.buffer as ArrayBuffer] : []);
  }, (err: unknown) => fail(id, err));
});
