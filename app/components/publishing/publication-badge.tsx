import { useTranslation } from "react-i18next";

/** What the articles list says of an article's publication (decision 041); published as saved says nothing. */
export type PublicationBadge = "draft" | "never" | "scheduled";

export function PublicationBadgeView({ badge }: { badge: PublicationBadge }) {
  const { t } = useTranslation();
  const text = badge === "draft" ? t("publishing.badgeDraft") : badge === "never" ? t("publishing.badgeNever") : t("publishing.badgeScheduled");
  return <span className={`tree-badge tree-badge--${badge}`}>{text}</span>;
}
