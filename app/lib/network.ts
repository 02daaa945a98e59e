// Client addresses as the rate limits and the statistics see them: one subscriber's network, not one
// device (an IPv6 device rotates its interface identifier within its /64 at will).

function ipv4(text: string): string | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    // No leading zeros: "01" is octal to some parsers and decimal to others, so it names no address.
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes.join(".");
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail allowed), or null. */
function ipv6Groups(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (half: string): number[] | null => {
    if (half === "") return [];
    const groups: number[] = [];
    const pieces = half.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = ipv4(piece);
        if (!v4) return null;
        const [a, b, c, d] = v4.split(".").map(Number) as [number, number, number, number];
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) {
        groups.push(parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  // "::" stands for at least one group of zeros.
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/**
 * The part of a client address that names one client: an IPv4 address whole, an IPv6 address reduced
 * to its /64 (one subscriber's network: a device rotates its interface identifier within it at will),
 * an IPv4-mapped IPv6 address as the IPv4 it maps. Anything else (no address locally) is kept as given,
 * cut to 64 characters. The report limits (decision 034) and the scan fingerprints (decision 032) use it.
 */
export function clientNetwork(address: string): string {
  let text = address.trim().toLowerCase();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const v4 = ipv4(text);
  if (v4) return v4;
  if (text.includes(":")) {
    const groups = ipv6Groups(text.replace(/%.*$/, ""));
    if (groups) {
      if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
        return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
      }
      return `${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(":")}::/64`;
    }
  }
  return text.slice(0, 64);
}
