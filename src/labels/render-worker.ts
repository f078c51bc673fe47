// The body of a render thread (see render-pool.ts): renders each label or customs document it is sent and posts
// the bytes back.
import { parentPort } from 'node:worker_threads';
import type { JobMessage, JobReply } from '../job-thread.ts';
import type { CustomsDocumentData, CustomsDocumentType } from './customs-data.ts';
import { renderCustomsDocument } from './customs-documents.ts';
import type { LabelData, LabelFormat } from './label-data.ts';
import { renderLabel } from './render.ts';

export type RenderJob = { data: LabelData; format: LabelFormat } | { document: CustomsDocumentType; data: CustomsDocumentData };

const port = parentPort!;
port.on('message', ({ id, job }: JobMessage<RenderJob>) => {
  const drawn = 'document' in job ? renderCustomsDocument(job.document, job.data) : renderLabel(job.data, job.format);
  drawn.then(
    (bytes) => {
      // A buffer that owns its whole memory moves to the main thread without a copy; a slice of Node's shared
      // pool cannot be moved, and is copied.
      const owns = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      port.postMessage({ id, result: bytes } satisfies JobReply<Uint8Array>, owns ? [bytes.buffer as ArrayBuffer] : []);
    },
    (err: unknown) => port.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies JobReply<Uint8Array>),
  );
});
