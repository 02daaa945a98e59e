import type { MemberRow } from "~/teams/members.server";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FieldError } from "~/components/field-error";
import type { ErrorReason } from "~/errors";
import { ROLES, type Role } from "~/teams/roles";
import { languageLabel } from "~/translation/languages";
import { LanguagePicker } from "./language-picker";
import { OnceLink } from "./once-link";

/** A member as the team page's loader sends it (the model's row). */
export type MemberView = MemberRow;

interface MemberCardProps {
  member: MemberView;
  isMe: boolean;
  busy: boolean;
  format: (at: number) => string;
  /** A link's expiry, as the link's own page writes it (zone named). */
  expiry: (at: number) => string;
  errors: Record<string, ErrorReason>;
  resetLink: { url: string; expiresAt: number } | null;
  onDismissLink: () => void;
  onRemove: (member: MemberView) => void;
}

/** One member: who, role and languages, last activity; change the role, make a reset link, remove. */
export function MemberCard({ member, isMe, busy, format, expiry, errors, resetLink, onDismissLink, onRemove }: MemberCardProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "fr";
  const [role, setRole] = useState<Role>(member.role);
  const idBase = `member-${member.id}`;
  const roleError = errors.role ?? errors.userId;
  return (
    <li className="member-card" data-member={member.email} data-member-id={member.id}>
      <h3 className="member-card__email">
        {member.email}
        {isMe ? <span className="member-card__you"> ({t("team.you")})</span> : null}
      </h3>
      <p className="member-card__facts">
        <span className="member-card__role">{t(`team.roles.${member.role}`)}</span>
        {member.role === "translator" ? (
          <span>{member.languages.length === 0 ? t("team.allLanguages") : member.languages.map((code) => languageLabel(code, locale)).join(", ")}</span>
        ) : null}
        <span>{member.lastActiveAt ? t("team.lastActive", { date: format(member.lastActiveAt) }) : t("team.neverActive")}</span>
        <span>{t("team.joined", { date: format(member.createdAt) })}</span>
      </p>
      <Form method="post" className="member-card__form" preventScrollReset aria-label={t("team.changeRoleOf", { email: member.email })}>
        <input type="hidden" name="intent" value="update_member" />
        <input type="hidden" name="userId" value={member.id} />
        <label className="field member-card__role-field">
          <span>{t("team.role")}</span>
          <select
            name="role"
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as Role)}
            aria-invalid={Boolean(roleError)}
            aria-describedby={roleError ? `${idBase}-role-error` : undefined}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`team.roles.${r}`)}
              </option>
            ))}
          </select>
          <small>{t(`team.roleHelp.${role}`)}</small>
        </label>
        {role === "translator" ? (
          <LanguagePicker
            key={member.languages.join(",")}
            defaultValue={member.role === "translator" ? member.languages : []}
            invalid={Boolean(errors.languages)}
          />
        ) : null}
        <FieldError scope="team" field={errors.role ? "role" : "userId"} reason={roleError} id={`${idBase}-role-error`} />
        <FieldError scope="team" field="languages" reason={errors.languages} id={`${idBase}-languages-error`} />
        <div className="member-card__actions">
          <button type="submit" className="button button--small" aria-disabled={busy}>
            {t("team.saveRole")}
          </button>
        </div>
      </Form>
      <div className="member-card__actions">
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="password_reset_link" />
          <input type="hidden" name="userId" value={member.id} />
          <button type="submit" className="button button--ghost button--small" aria-disabled={busy} aria-label={t("team.resetLinkOf", { email: member.email })}>
            {t("team.resetLink")}
          </button>
        </Form>
        <button
          type="button"
          className="button button--ghost button--small member-card__remove"
          aria-disabled={busy}
          aria-label={t("team.removeOf", { email: member.email })}
          onClick={() => onRemove(member)}
        >
          {t("team.remove")}
        </button>
      </div>
      {resetLink ? (
        <OnceLink
          title={t("team.resetLinkTitle", { email: member.email })}
          text={t("team.resetLinkText", {
            email: member.email,
            date: expiry(resetLink.expiresAt),
          })}
          url={resetLink.url}
          onDismiss={onDismissLink}
        />
      ) : null}
    </li>
  );
}
