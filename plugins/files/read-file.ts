/** A stored file as packets: a CSV row, a JSON element, or a whole text/markdown file each. */
import type { Readable } from 'node:stream';
import type { BlobBucket, DataPacket } from '../../sdk/index.js';
import type { FileRecord } from './records.js';

export type FileKind = 'csv' | 'json' | 'markdown' | 'text' | 'other';

export function fileKind(record: Pick<FileRecord, 'filename' | 'mime'>): FileKind {
  const ext = record.filename.toLowerCase().split('.').pop() ?? '';
  if (record.mime === 'text/csv' || ext === 'csv') return 'csv';
  if (record.mime === 'application/json' || ext === 'json') return 'json';
  if (record.mime === 'text/markdown' || ext === 'md' || ext === 'markdown') return 'markdown';
  if (record.mime.startsWith('text/') || ext === 'txt') return 'text';
  return 'other';
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

/** The first markdown heading, else the first non-empty line (at most 200 characters). */
export function titleOf(text: string, fallback: string): string {
  const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/m.exec(text);
  const line =
    heading?.[1] ??
    text
      .split(/\r?\n/)
      .find((l) => l.trim())
      ?.trim() ??
    '';
  return (line || fallback).slice(0, 200);
}

const base = (record: FileRecord) => ({ file_id: record.id, filename: record.filename, mime: record.mime });

/** At most `limit` packets from the file. */
export async function filePackets(bucket: BlobBucket, record: FileRecord, limit: number): Promise<DataPacket[]> {
  const kind = fileKind(record);
  if (kind === 'other') return [];
  const stream = await bucket.open(record.blob_id);
  if (!stream) return [];
  const packets: DataPacket[] = [];
  if (kind === 'csv') {
    // csv-parse loads with the first CSV read, not with the host.
    const { parse } = await import('csv-parse');
    const parser = stream.pipe(parse({ columns: true, skip_empty_lines: true, bom: true, relax_column_count: true, trim: true }));
    let row = 0;
    try {
      for await (const fields of parser as AsyncIterable<Record<string, string>>) {
        row++;
        const data: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, fields);
        packets.push({ type: 'file_row', data: { ...data }, metadata: { item_id: `file:${record.id}:row:${row}`, ...base(record), row } });
        if (packets.length >= limit) break;
      }
    } finally {
      stream.destroy();
    }
    return packets;
  }
  const text = await readAll(stream);
  if (kind === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new Error(`File ${record.filename} is not valid JSON: ${(error as Error).message}`);
    }
    const items = Array.isArray(value) ? value : [value];
    items.slice(0, limit).forEach((item, index) => {
      const data = item && typeof item === 'object' && !Array.isArray(item) ? { ...(item as Record<string, unknown>) } : { value: item };
      const itemId = Array.isArray(value) ? `file:${record.id}:item:${index + 1}` : `file:${record.id}`;
      packets.push({
        type: 'file_item',
        data,
        metadata: { item_id: itemId, ...base(record), ...(Array.isArray(value) ? { index: index + 1 } : {}) },
      });
    });
    return packets;
  }
  const title = titleOf(text, record.filename);
  return [{ type: 'file', data: { title, content: text, format: kind }, metadata: { item_id: `file:${record.id}`, ...base(record) } }];
}
