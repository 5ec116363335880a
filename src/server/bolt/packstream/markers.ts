/** PackStream v1 marker bytes (high nibble marks the tiny forms). */
export const Marker = {
  Null: 0xc0,
  Float64: 0xc1,
  False: 0xc2,
  True: 0xc3,
  Int8: 0xc8,
  Int16: 0xc9,
  Int32: 0xca,
  Int64: 0xcb,
  Bytes8: 0xcc,
  Bytes16: 0xcd,
  Bytes32: 0xce,
  String8: 0xd0,
  String16: 0xd1,
  String32: 0xd2,
  List8: 0xd4,
  List16: 0xd5,
  List32: 0xd6,
  Map8: 0xd8,
  Map16: 0xd9,
  Map32: 0xda,
  TinyString: 0x80,
  TinyList: 0x90,
  TinyMap: 0xa0,
  TinyStruct: 0xb0,
} as const;

/** Smallest and largest INTEGER PackStream can carry (64-bit signed). */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
