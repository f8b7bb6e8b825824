// A tiny writer of MaxMind DB (MMDB) files, for tests that need an IP database of their own (an
// ASN database whose networks they choose): IPv4 networks only, 24-bit records, the data types
// ASN and country records use (maps, strings, unsigned integers, arrays). Format:
// https://maxmind.github.io/MaxMind-DB/ (search tree, 16-byte separator, data section, metadata).
import { writeFileSync } from 'node:fs';

type Value = string | number | boolean | Value[] | { [key: string]: Value };

function sizeBytes(size: number): { bits: number; extra: Buffer } {
  if (size < 29) return { bits: size, extra: Buffer.alloc(0) };
  if (size < 29 + 256) return { bits: 29, extra: Buffer.from([size - 29]) };
  if (size < 285 + 65_536) {
    const extra = Buffer.alloc(2);
    extra.writeUInt16BE(size - 285);
    return { bits: 30, extra };
  }
  const extra = Buffer.alloc(3);
  extra.writeUIntBE(size - 65_821, 0, 3);
  return { bits: 31, extra };
}

function field(type: number, size: number, payload: Buffer): Buffer {
  const { bits, extra } = sizeBytes(size);
  const head = type <= 7 ? Buffer.from([(type << 5) | bits]) : Buffer.from([bits, type - 7]);
  return Buffer.concat([head, extra, payload]);
}

function unsigned(n: number): Buffer {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from(bytes);
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return field(2, bytes.length, bytes);
  }
  if (typeof value === 'boolean') return field(14, value ? 1 : 0, Buffer.alloc(0));
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) throw new Error(`only 32-bit unsigned integers: ${value}`);
    const bytes = unsigned(value);
    return field(6, bytes.length, bytes);
  }
  if (Array.isArray(value)) return field(11, value.length, Buffer.concat(value.map(encode)));
  const entries = Object.entries(value);
  return field(7, entries.length, Buffer.concat(entries.flatMap(([key, inner]) => [encode(key), encode(inner)])));
}

interface Node {
  children: [Node | number | undefined, Node | number | undefined];
}

/** An IPv4 network (a.b.c.d/len) as its 32 bits and length. */
function parseNetwork(cidr: string): { bits: number; length: number } {
  const [address, length] = cidr.split('/');
  const octets = address!.split('.').map(Number);
  return { bits: octets.reduce((n, octet) => n * 256 + octet, 0), length: Number(length ?? 32) };
}

/** The bytes of an IPv4 MMDB mapping each network (CIDR, not overlapping) to its record. */
export function mmdbOf(networks: ReadonlyArray<[cidr: string, record: { [key: string]: Value }]>, databaseType = 'Test-DB'): Buffer {
  const data: Buffer[] = [];
  let dataSize = 0;
  // Networks with the same record share it, as real databases do.
  const offsets = new Map<string, number>();
  const root: Node = { children: [undefined, undefined] };
  for (const [cidr, record] of networks) {
    const key = JSON.stringify(record);
    let offset = offsets.get(key);
    if (offset === undefined) {
      offset = dataSize;
      const encoded = encode(record);
      data.push(encoded);
      dataSize += encoded.length;
      offsets.set(key, offset);
    }
    const { bits, length } = parseNetwork(cidr);
    let node = root;
    for (let depth = 0; depth < length; depth++) {
      const bit = Math.floor(bits / 2 ** (31 - depth)) % 2;
      if (depth === length - 1) {
        node.children[bit] = offset;
        break;
      }
      const next = node.children[bit];
      if (typeof next === 'number') throw new Error(`${cidr} overlaps another network`);
      node = next ?? (node.children[bit] = { children: [undefined, undefined] });
    }
  }
  // Number the nodes breadth first, the root 0.
  const nodes: Node[] = [root];
  for (let i = 0; i < nodes.length; i++) for (const child of nodes[i]!.children) if (child !== undefined && typeof child !== 'number') nodes.push(child);
  const index = new Map(nodes.map((node, i) => [node, i]));
  const nodeCount = nodes.length;
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach((node, i) => {
    node.children.forEach((child, side) => {
      const record = child === undefined ? nodeCount : typeof child === 'number' ? nodeCount + 16 + child : index.get(child)!;
      tree.writeUIntBE(record, i * 6 + side * 3, 3);
    });
  });
  const metadata = encode({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_767_225_600,
    database_type: databaseType,
    description: { en: 'Written by the tests' },
    ip_version: 4,
    languages: ['en'],
    node_count: nodeCount,
    record_size: 24,
  });
  return Buffer.concat([tree, Buffer.alloc(16), ...data, Buffer.from('abcdef4d61784d696e642e636f6d', 'hex'), metadata]);
}

/** Writes an ASN database: each network with its autonomous system number and name. */
export function writeAsnDatabase(path: string, networks: ReadonlyArray<[cidr: string, asn: number, organization: string]>): void {
  writeFileSync(path, mmdbOf(networks.map(([cidr, asn, organization]) => [cidr, { autonomous_system_number: asn, autonomous_system_organization: organization }]), 'Test-ASN'));
}
