/** The translators' files tile: a document with two arrows (out and back in). */
export function XliffIcon({ size = 48 }: { size?: number }) {
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
      <path d="M6 3h7l4 4v5" />
      <path d="M13 3v4h4" />
      <path d="M6 3v18h6" />
      <path d="M15 15h6M19 13l2 2-2 2" />
      <path d="M21 20h-6M17 18l-2 2 2 2" />
    </svg>
  );
}
