// SHA-256 for the archive's checksums: of bytes in memory, and of a stream as it passes (workerd's
// `crypto.DigestStream`, which the generated binding types do not declare).
import { toHex } from "~/lib/crypto";

export const sha256Bytes = async (bytes: Uint8Array) => toHex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));

type DigestStream = WritableStream<Uint8Array> & { readonly digest: Promise<ArrayBuffer> };

/** A running SHA-256: `write` chunks, then `hex()` once. */
export function sha256Stream() {
  const Digest = (crypto as unknown as { DigestStream: new (algorithm: string) => DigestStream }).DigestStream;
  const stream = new Digest("SHA-256");
  const writer = stream.getWriter();
  return {
    write: (chunk: Uint8Array) => writer.write(chunk),
    hex: async () => {
      await writer.close();
      return toHex(await stream.digest);
    },
  };
}
