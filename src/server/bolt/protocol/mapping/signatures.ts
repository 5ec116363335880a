/** Structure signatures of the values Bolt carries (PackStream structures). */
export const ValueSignature = {
  Node: 0x4e, // N
  Relationship: 0x52, // R
  UnboundRelationship: 0x72, // r
  Path: 0x50, // P
  Date: 0x44, // D
  Time: 0x54, // T
  LocalTime: 0x74, // t
  DateTime: 0x49, // I  (UTC seconds, offset)            5.0+, or 4.4 with the utc patch
  DateTimeZoneId: 0x69, // i  (UTC seconds, zone id)     5.0+, or 4.4 with the utc patch
  LegacyDateTime: 0x46, // F  (local seconds, offset)    4.4
  LegacyDateTimeZoneId: 0x66, // f  (local seconds, zone id)  4.4
  LocalDateTime: 0x64, // d
  Duration: 0x45, // E
  Point2D: 0x58, // X
  Point3D: 0x59, // Y
  Vector: 0x56, // V  (6.0+)
} as const;
