/** The bytes handed out `size` at a time, as a slow upload arrives. */
export function chunksOf(data: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0; start < data.length; start += size) chunks.push(data.subarray(start, start + size));
  return chunks;
}
