/** The export and import tile: a box with an arrow in and out. */
export function ArchiveIcon({ size = 48 }: { size?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      width={size}
      height={size}
    >
      <path d="M3 8h18v12H3z" />
      <path d="M2 4h20v4H2z" />
      <path d="M12 11v6M9.5 14.5 12 17l2.5-2.5" />
    </svg>
  );
}
