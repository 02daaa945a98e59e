/** The tours tile: a winding path from one numbered stop to the next. */
export function TourIcon({ size = 48 }: { size?: number }) {
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
      <circle cx="5" cy="5" r="2.5" />
      <circle cx="19" cy="19" r="2.5" />
      <path d="M7.5 5H16a3.5 3.5 0 0 1 0 7H8a3.5 3.5 0 0 0 0 7h8.5" strokeDasharray="2 2.2" />
    </svg>
  );
}
