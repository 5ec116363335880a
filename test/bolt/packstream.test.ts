import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Packer, PackError } from '../../src/server/bolt/packstream/packer.js';
import { PackStreamError } from '../../src/server/bolt/packstream/errors.js';
import { Structure } from '../../src/server/bolt/packstream/structure.js';
import { unpackOne, Unpacker, type WireValue } from '../../src/server/bolt/packstream/unpacker.js';

function pack(value: unknown): Buffer {
  const packer = new Packer();
  packer.pack(value);
  return packer.take();
}

const hex = (value: unknown): string => pack(value).toString('hex');

describe('PackStream encoding', () => {
  it('uses the smallest integer form at every boundary', () => {
    assert.equal(hex(0n), '00');
    assert.equal(hex(127n), '7f');
    assert.equal(hex(-16n), 'f0');
    assert.equal(hex(-17n), 'c8ef');
    assert.equal(hex(-128n), 'c880');
    assert.equal(hex(128n), 'c90080');
    assert.equal(hex(-129n), 'c9ff7f');
    assert.equal(hex(32767n), 'c97fff');
    assert.equal(hex(32768n), 'ca00008000');
    assert.equal(hex(-2147483648n), 'ca80000000');
    assert.equal(hex(2147483648n), 'cb0000000080000000');
    assert.equal(hex(9223372036854775807n), 'cb7fffffffffffffff');
    assert.equal(hex(-9223372036854775808n), 'cb8000000000000000');
  });

  it('refuses integers beyond 64 bits', () => {
    assert.throws(() => pack(2n ** 63n), PackError);
  });

  it('sends every JS number as FLOAT', () => {
    assert.equal(hex(1), 'c13ff0000000000000');
    assert.equal(hex(-0.5), 'c1bfe0000000000000');
  });

  it('encodes null, booleans, strings, bytes, lists, maps and structures', () => {
    assert.equal(hex(null), 'c0');
    assert.equal(hex(undefined), 'c0');
    assert.equal(hex(true), 'c3');
    assert.equal(hex(false), 'c2');
    assert.equal(hex(''), '80');
    assert.equal(hex('a'), '8161');
    assert.equal(hex('å'), '82c3a5');
    assert.equal(hex('x'.repeat(16)), 'd010' + '78'.repeat(16));
    assert.equal(hex('x'.repeat(256)).slice(0, 6), 'd10100');
    assert.equal(hex('x'.repeat(65536)).slice(0, 10), 'd200010000');
    assert.equal(hex(new Uint8Array([1, 2])), 'cc020102');
    assert.equal(hex([1n, 2n]), '920102');
    assert.equal(hex(new Map([['a', 1n]])), 'a1816101');
    assert.equal(hex({ a: 1n, skipped: undefined }), 'a1816101');
    assert.equal(hex(new Structure(0x4e, [1n])), 'b14e01');
    assert.equal(hex(Array.from({ length: 16 }, () => null)).slice(0, 4), 'd410');
  });

  it('uses the structure hook for other classes and refuses unknown ones', () => {
    class Thing {}
    const packer = new Packer((value) => (value instanceof Thing ? new Structure(0x01, []) : undefined));
    packer.pack([new Thing()]);
    assert.equal(packer.take().toString('hex'), '91b001');
    assert.throws(() => pack(new Thing()), PackError);
    assert.throws(() => pack(Symbol('x')), PackError);
  });
});

/** Arbitrary wire values (what the decoder produces). */
const wireValue: fc.Arbitrary<WireValue> = fc.letrec<{ value: WireValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.double({ noNaN: true }),
    fc.string({ unit: 'binary' }),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => new Uint8Array(bytes)),
    fc.array(tie('value'), { maxLength: 20 }),
    fc.array(fc.tuple(fc.string(), tie('value')), { maxLength: 20 }).map((entries) => new Map(entries)),
    fc
      .tuple(fc.integer({ min: 0, max: 255 }), fc.array(tie('value'), { maxLength: 15 }))
      .map(([signature, fields]) => new Structure(signature, fields)),
  ),
})).value;

describe('PackStream round trips (property-based)', () => {
  it('decode(encode(v)) equals v for every value', () => {
    fc.assert(
      fc.property(wireValue, (value) => {
        assert.deepStrictEqual(unpackOne(pack(value)), value);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips NaN and -0 exactly', () => {
    assert.ok(Number.isNaN(unpackOne(pack(Number.NaN))));
    assert.ok(Object.is(unpackOne(pack(-0)), -0));
  });

  it('round-trips large containers (16-bit and 32-bit sizes)', () => {
    const list = Array.from({ length: 70000 }, (_, i) => BigInt(i));
    assert.deepStrictEqual(unpackOne(pack(list)), list);
    const map = new Map(Array.from({ length: 300 }, (_, i) => [`k${i}`, `v${i}`] as [string, WireValue]));
    assert.deepStrictEqual(unpackOne(pack(map)), map);
  });
});

describe('PackStream hostile input', () => {
  const rejects = (bytes: number[] | Buffer, pattern?: RegExp): void => {
    assert.throws(
      () => unpackOne(Buffer.from(bytes as number[])),
      (error: unknown) => {
        assert.ok(error instanceof PackStreamError, `expected PackStreamError, got ${String(error)}`);
        if (pattern) assert.match(error.message, pattern);
        return true;
      },
    );
  };

  it('rejects truncated values', () => {
    rejects([]);
    rejects([0xc9, 0x01]);
    rejects([0xcb, 0, 0, 0]);
    rejects([0xc1, 0, 0]);
    rejects([0x85, 0x61]);
    rejects([0x92, 0x01]);
    rejects([0xa1, 0x81, 0x61]);
    rejects([0xb2, 0x4e, 0x01]);
  });

  it('rejects huge declared sizes without allocating them', () => {
    rejects([0xd2, 0x7f, 0xff, 0xff, 0xff, 0x61], /declared/);
    rejects([0xce, 0xff, 0xff, 0xff, 0xff], /declared/);
    rejects([0xd6, 0x7f, 0xff, 0xff, 0xff, 0x01], /declared/);
    rejects([0xda, 0x7f, 0xff, 0xff, 0xff, 0x81, 0x61, 0x01], /declared/);
  });

  it('rejects nesting deeper than the limit', () => {
    rejects(Buffer.alloc(100_000, 0x91), /nested deeper/);
    rejects(Buffer.alloc(5000, 0xb1), /nested deeper/);
    const ok = Buffer.concat([Buffer.alloc(100, 0x91), Buffer.from([0xc0])]);
    assert.doesNotThrow(() => unpackOne(ok));
  });

  it('rejects unknown markers, non-string map keys, invalid UTF-8 and trailing bytes', () => {
    rejects([0xc4], /marker/);
    rejects([0xdf], /marker/);
    rejects([0xa1, 0x01, 0x01], /keys/);
    rejects([0x82, 0xc3, 0x28], /UTF-8/);
    rejects([0x01, 0x02], /unexpected bytes/);
  });

  it('never throws anything but PackStreamError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          new Unpacker(bytes).unpack();
        } catch (error) {
          assert.ok(error instanceof PackStreamError, String(error));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws anything but PackStreamError on mutated valid encodings', () => {
    fc.assert(
      fc.property(
        wireValue,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        (value, mutations) => {
          const bytes = pack(value);
          for (const [at, byte] of mutations) bytes[at % bytes.length] = byte;
          try {
            unpackOne(bytes);
          } catch (error) {
            assert.ok(error instanceof PackStreamError, String(error));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
