/** The spec's card date, day-month-year ("17-12-2024"), from an ISO day. */
export function formatCardDate(isoDay: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match) throw new Error(`not an ISO day: ${isoDay}`);
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/** RFC 822 date for RSS (noon UTC, so no timezone moves the day). */
export function rfc822(isoDay: string): string {
  return new Date(`${isoDay}T12:00:00Z`).toUTCString();
}

/** Text safe inside an XML element or attribute; characters XML 1.0 forbids are dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 cannot carry
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c)
  );
}
