/** An estimate in each currency its engines bill in: "$4.20 + €17.17", "—" for nothing, "+ ?" for engines not priced. */
export function formatCosts(locale: string, m: { costUsd: number; costEur: number; unpriced: readonly string[] }, unpriced: string): string {
  const money = (currency: string, n: number) => new Intl.NumberFormat(locale, { style: "currency", currency, maximumFractionDigits: 2 }).format(n);
  const parts = [
    ...(m.costUsd > 0 ? [money("USD", m.costUsd)] : []),
    ...(m.costEur > 0 ? [money("EUR", m.costEur)] : []),
    ...(m.unpriced.length > 0 ? [unpriced] : []),
  ];
  return parts.length === 0 ? money("USD", 0) : parts.join(" + ");
}
