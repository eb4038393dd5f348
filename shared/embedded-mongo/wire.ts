/**
 * MongoDB wire protocol framing: OP_MSG (sections kind 0 and 1, optional
 * CRC-32C trailer), and the legacy OP_QUERY / OP_REPLY pair drivers still use
 * for the first handshake.
 */
import { BSON } from "bson";
import type { Doc } from "./values";

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

export const MSG_CHECKSUM_PRESENT = 1 << 0;
export const MSG_MORE_TO_COME = 1 << 1;

export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_BSON_SIZE = 16 * 1024 * 1024;

export interface Header {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export type Request =
  | { kind: "msg"; header: Header; flags: number; command: Doc }
  | { kind: "query"; header: Header; collection: string; command: Doc };

export const readHeader = (buf: Buffer): Header => ({
  length: buf.readInt32LE(0),
  requestId: buf.readInt32LE(4),
  responseTo: buf.readInt32LE(8),
  opCode: buf.readInt32LE(12),
});

const decode = (buf: Buffer, offset: number): [Doc, number] => {
  const size = buf.readInt32LE(offset);
  return [BSON.deserialize(buf.subarray(offset, offset + size)), offset + size];
};

/** Parses one complete message; document sequences are folded into the body under their identifier. */
export function parseMessage(buf: Buffer): Request {
  const header = readHeader(buf);
  if (header.opCode === OP_MSG) {
    const flags = buf.readUInt32LE(16);
    const end = flags & MSG_CHECKSUM_PRESENT ? buf.length - 4 : buf.length;
    let offset = 20;
    let body: Doc | undefined;
    const sequences: [string, Doc[]][] = [];
    while (offset < end) {
      const kind = buf[offset++];
      if (kind === 0) {
        [body, offset] = decode(buf, offset);
      } else if (kind === 1) {
        const size = buf.readInt32LE(offset);
        const sectionEnd = offset + size;
        const nul = buf.indexOf(0, offset + 4);
        const id = buf.toString("utf8", offset + 4, nul);
        const docs: Doc[] = [];
        let p = nul + 1;
        while (p < sectionEnd) {
          let d: Doc;
          [d, p] = decode(buf, p);
          docs.push(d);
        }
        sequences.push([id, docs]);
        offset = sectionEnd;
      } else throw new Error(`unsupported OP_MSG section kind ${kind}`);
    }
    if (!body) throw new Error("OP_MSG without a body section");
    for (const [id, docs] of sequences) body[id] = docs;
    return { kind: "msg", header, flags, command: body };
  }
  if (header.opCode === OP_QUERY) {
    const nul = buf.indexOf(0, 20);
    const collection = buf.toString("utf8", 20, nul);
    const [command] = decode(buf, nul + 1 + 8);
    return { kind: "query", header, collection, command };
  }
  throw new Error(`unsupported opCode ${header.opCode}`);
}

/** A Buffer view of BSON output without copying. */
const toBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

let nextRequestId = 1;

function frame(opCode: number, responseTo: number, payload: Buffer[]): Buffer {
  const length = 16 + payload.reduce((n, b) => n + b.length, 0);
  const header = Buffer.alloc(16);
  header.writeInt32LE(length, 0);
  header.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, ...payload], length);
}

export function encodeMsgReply(responseTo: number, body: Doc): Buffer {
  const prefix = Buffer.alloc(5);
  return frame(OP_MSG, responseTo, [prefix, toBuffer(BSON.serialize(body))]);
}

export function encodeQueryReply(responseTo: number, body: Doc): Buffer {
  const prefix = Buffer.alloc(20);
  prefix.writeInt32LE(1, 16);
  return frame(OP_REPLY, responseTo, [prefix, toBuffer(BSON.serialize(body))]);
}
