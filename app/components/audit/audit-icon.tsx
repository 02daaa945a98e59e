/** The audit log's tile: a list with a clock. */
export function AuditIcon({ size = 48 }: { size?: number }) {
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
      <path d="M4 5h9M4 10h7M4 15h5M4 20h5" />
      <circle cx="17" cy="16" r="4.5" />
      <path d="M17 13.5V16l1.6 1.2" />
    </svg>
  );
}
