// snappyjs ships no types: the one call remote-write.ts makes (snappy's block format, which remote write requires).
declare module 'snappyjs' {
  const SnappyJS: { compress(input: Uint8Array): Uint8Array };
  export default SnappyJS;
}
