import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { FieldError } from "~/components/field-error";
import { LanguagePicker } from "~/components/team/language-picker";
import { MemberCard, type MemberView } from "~/components/team/member-card";
import { OnceLink } from "~/components/team/once-link";
import { invalidField, type ErrorReason } from "~/errors";
import { getMuseum } from "~/models/museums.server";
import { inviteMemberSchema, passwordResetLinkSchema, removeMemberSchema, revokeInvitationSchema, updateMemberSchema } from "~/teams/member-input";
import { createPasswordResetLink, inviteMember, listMembers, removeMember, revokeInvitation, updateMember } from "~/teams/members.server";
import { ROLES, type Role } from "~/teams/roles";
import teamStyles from "~/styles/team.css?url";
import { languageLabel } from "~/translation/languages";
import { fieldErrors, formString } from "~/utils/form";
import { formRefusal, type FormResult } from "~/utils/form-action.server";
import { intentAction, type IntentArgs, type IntentHandler } from "~/utils/intent-action.server";
import { pageMeta } from "~/utils/meta";
import { linkExpiryFormat } from "~/components/team/link-expiry";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";
import { useFormRefusal } from "~/hooks/use-form-refusal";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "team", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: teamStyles }];

/** `/team` (admins): members, invitations, roles (issue 18, decision 040). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "museum.manage");
  const [{ members, invitations }, museum] = await Promise.all([listMembers(context.db, user.museumId), getMuseum(context.db, user.museumId)]);
  return {
    members,
    invitations,
    me: user.id,
    timeZone: museum?.timezone ?? "UTC",
  };
}

type Intent = "invite" | "revoke_invitation" | "update_member" | "remove_member" | "password_reset_link";
export type TeamActionResult = FormResult<Intent> & {
  /** The member or invitation the answer is about. */
  target?: number;
  /** A link shown this once (invitation or reset). */
  link?: { url: string; expiresAt: number; email: string };
  email?: string;
};

const languagesOf = (form: FormData) => form.getAll("languages").filter((v): v is string => typeof v === "string");

/** The member or invitation a form is about, from its hidden field. */
const targetOf = (intent: string, form: FormData) => Number(formString(form, intent === "revoke_invitation" ? "id" : "userId")) || undefined;

/** `intent=invite`: a new member's link, shown once (7 days). */
async function inviteAction({ request, user, form, context }: IntentArgs) {
  const role = formString(form, "role");
  const parsed = inviteMemberSchema.safeParse({
    email: formString(form, "email"),
    role,
    languages: role === "translator" ? languagesOf(form) : undefined,
  });
  if (!parsed.success) return formRefusal("invite", fieldErrors(parsed.error));
  const invited = await inviteMember(context.db, context.directory, user, parsed.data, new URL(request.url).origin);
  return {
    intent: "invite",
    ok: true,
    target: invited.id,
    link: {
      url: invited.invitationUrl,
      expiresAt: invited.expiresAt,
      email: parsed.data.email,
    },
  } satisfies TeamActionResult;
}

/** `intent=revoke_invitation`: a pending invitation's link stops working. */
async function revokeInvitationAction({ user, form, context }: IntentArgs) {
  const parsed = revokeInvitationSchema.safeParse({
    id: formString(form, "id"),
  });
  if (!parsed.success) return formRefusal("revoke_invitation", fieldErrors(parsed.error));
  await revokeInvitation(context.db, user, parsed.data.id);
  return {
    intent: "revoke_invitation",
    ok: true,
    target: parsed.data.id,
    email: formString(form, "email"),
  } satisfies TeamActionResult;
}

/** `intent=update_member`: a member's role (and a translator's languages). */
async function updateMemberAction({ user, form, context }: IntentArgs) {
  const role = formString(form, "role");
  const parsed = updateMemberSchema.safeParse({
    userId: formString(form, "userId"),
    role,
    languages: role === "translator" ? languagesOf(form) : undefined,
  });
  if (!parsed.success) return data({ ...refusalBody("update_member", fieldErrors(parsed.error)), target: targetOf("update_member", form) }, { status: 400 });
  const member = await updateMember(context.db, user, parsed.data);
  return {
    intent: "update_member",
    ok: true,
    target: member.id,
    email: member.email,
  } satisfies TeamActionResult;
}

/** `intent=remove_member`: a member leaves the team (never the last admin). */
async function removeMemberAction({ user, form, context }: IntentArgs) {
  const parsed = removeMemberSchema.safeParse({
    userId: formString(form, "userId"),
  });
  if (!parsed.success) return formRefusal("remove_member", fieldErrors(parsed.error));
  await removeMember(context.db, context.directory, user, parsed.data.userId);
  return {
    intent: "remove_member",
    ok: true,
    target: parsed.data.userId,
    email: formString(form, "email"),
  } satisfies TeamActionResult;
}

/** `intent=password_reset_link`: a member's reset link, shown once (1 hour). */
async function passwordResetLinkAction({ request, user, form, context }: IntentArgs) {
  const parsed = passwordResetLinkSchema.safeParse({
    userId: formString(form, "userId"),
  });
  if (!parsed.success) return formRefusal("password_reset_link", fieldErrors(parsed.error));
  const link = await createPasswordResetLink(context.db, user, parsed.data.userId, new URL(request.url).origin);
  return {
    intent: "password_reset_link",
    ok: true,
    target: parsed.data.userId,
    link: { ...link, email: "" },
  } satisfies TeamActionResult;
}

/** The page's forms (without JavaScript too), with the same rules and models as the JSON API; a refusal names its member. */
export const action = intentAction(
  "museum.manage",
  {
    invite: inviteAction,
    revoke_invitation: revokeInvitationAction,
    update_member: updateMemberAction,
    remove_member: removeMemberAction,
    password_reset_link: passwordResetLinkAction,
  } satisfies Record<Intent, IntentHandler>,
  (intent, { form }) => ({ target: targetOf(intent, form) }),
);

/** A refused form's answer: the reason per field, and the API's error body (the first field's). */
function refusalBody(intent: Intent, errors: Record<string, ErrorReason>): TeamActionResult {
  const [field, reason] = Object.entries(errors)[0] ?? ["_form", "invalid" as const];
  return {
    intent,
    ok: false,
    errors,
    error: invalidField(field, reason).toBody().error,
  };
}

export default function TeamPage() {
  const { members, invitations, me, timeZone } = useLoaderData<typeof loader>();
  const result = useActionData<TeamActionResult | { error: unknown }>();
  const answer = result && "intent" in result ? result : undefined;
  useFormRefusal(answer);
  const navigation = useNavigation();
  const submit = useSubmit();
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "fr";
  const busy = navigation.state !== "idle";
  const [removing, setRemoving] = useState<MemberView | null>(null);
  // The button that opened the confirmation gets focus back when it is cancelled.
  const removeTrigger = useRef<HTMLElement | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [inviteRole, setInviteRole] = useState<Role>("editor");
  const membersHeading = useRef<HTMLHeadingElement>(null);
  const pendingHeading = useRef<HTMLHeadingElement>(null);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone,
  });
  const format = (at: number) => dateFormat.format(new Date(at));
  const expiry = linkExpiryFormat(i18n.language, timeZone);

  const shownLink = answer?.ok && answer.link && answer.link.url !== dismissed ? answer.link : null;
  const errorsFor = (intent: Intent, target?: number) =>
    answer && !answer.ok && answer.intent === intent && (target === undefined || answer.target === target) ? (answer.errors ?? {}) : {};
  const inviteErrors = errorsFor("invite");

  // Say what happened; where the acted-on element went away, put focus on its list's heading.
  useEffect(() => {
    if (!answer) return;
    if (answer.ok) {
      if (answer.intent === "update_member")
        toast.success(t("team.roleSaved", { email: answer.email }), {
          id: "team-result",
        });
      if (answer.intent === "remove_member") {
        toast.success(t("team.removed", { email: answer.email }), {
          id: "team-result",
        });
        membersHeading.current?.focus();
      }
      if (answer.intent === "revoke_invitation") {
        toast.success(t("team.revoked", { email: answer.email }), {
          id: "team-result",
        });
        pendingHeading.current?.focus();
      }
    } else if (answer.errors?.id || (answer.errors?.userId && answer.errors.userId !== "last_admin")) {
      toast.error(t("team.gone"), { id: "team-result" });
      (answer.intent === "revoke_invitation" ? pendingHeading : membersHeading).current?.focus();
    } else if (answer.intent === "invite") {
      document.querySelector<HTMLElement>('form[data-intent="invite"] [aria-invalid="true"]')?.focus();
    } else if (answer.target !== undefined) {
      // A refused role change (the last admin): the field said why; focus goes to it.
      document.querySelector<HTMLElement>(`[data-member-id="${answer.target}"] [aria-invalid="true"]`)?.focus();
    }
  }, [answer, t]);

  function confirmRemove() {
    if (!removing) return;
    const form = new FormData();
    form.set("intent", "remove_member");
    form.set("userId", String(removing.id));
    form.set("email", removing.email);
    setRemoving(null);
    submit(form, { method: "post", preventScrollReset: true });
  }

  return (
    <section className="page team">
      <header className="team__header">
        <h1>{t("team.title")}</h1>
        <Link to="/dashboard" className="button button--ghost">
          <span aria-hidden="true">←</span> {t("team.backToDashboard")}
        </Link>
      </header>

      <h2 id="team-members" ref={membersHeading} tabIndex={-1}>
        {t("team.membersSection")} <span className="muted team__count">({t("team.membersCount", { count: members.length })})</span>
      </h2>
      <ul className="member-list" aria-labelledby="team-members">
        {members.map((member) => (
          <MemberCard
            key={member.id}
            member={member}
            isMe={member.id === me}
            busy={busy}
            format={format}
            expiry={expiry}
            errors={{
              ...errorsFor("update_member", member.id),
              ...errorsFor("remove_member", member.id),
            }}
            resetLink={answer?.intent === "password_reset_link" && answer.target === member.id && shownLink ? shownLink : null}
            onDismissLink={() => setDismissed(shownLink?.url ?? null)}
            onRemove={(m) => {
              toast.dismiss();
              removeTrigger.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
              setRemoving((current) => current ?? m);
            }}
          />
        ))}
      </ul>

      <h2 id="team-invite">{t("team.inviteSection")}</h2>
      {/* Drawn anew after each invitation, so the next one starts from an empty address. */}
      <Form
        method="post"
        className="form team__invite"
        data-intent="invite"
        preventScrollReset
        aria-labelledby="team-invite"
        key={answer?.intent === "invite" && answer.ok ? answer.target : "invite"}
      >
        <input type="hidden" name="intent" value="invite" />
        <label className="field">
          <span>{t("team.email")}</span>
          <input
            type="email"
            name="email"
            required
            maxLength={254}
            autoComplete="off"
            aria-invalid={Boolean(inviteErrors.email)}
            aria-describedby={inviteErrors.email ? "invite-email-error" : undefined}
          />
        </label>
        <FieldError scope="team" field="email" reason={inviteErrors.email} id="invite-email-error" />
        <label className="field">
          <span>{t("team.role")}</span>
          <select
            name="role"
            value={inviteRole}
            onChange={(event) => setInviteRole(event.currentTarget.value as Role)}
            aria-invalid={Boolean(inviteErrors.role)}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`team.roles.${r}`)}
              </option>
            ))}
          </select>
          <small>{t(`team.roleHelp.${inviteRole}`)}</small>
        </label>
        <FieldError scope="team" field="role" reason={inviteErrors.role} id="invite-role-error" />
        {inviteRole === "translator" ? <LanguagePicker defaultValue={[]} invalid={Boolean(inviteErrors.languages)} /> : null}
        <FieldError scope="team" field="languages" reason={inviteErrors.languages} id="invite-languages-error" />
        <button type="submit" className="button team__submit" aria-disabled={busy}>
          {t("team.invite")}
        </button>
      </Form>
      {answer?.intent === "invite" && shownLink ? (
        <OnceLink
          title={t("team.inviteLinkTitle", { email: shownLink.email })}
          text={t("team.inviteLinkText", {
            email: shownLink.email,
            date: expiry(shownLink.expiresAt),
          })}
          url={shownLink.url}
          onDismiss={() => setDismissed(shownLink.url)}
        />
      ) : null}

      <h2 id="team-pending" ref={pendingHeading} tabIndex={-1}>
        {t("team.pendingSection")}
      </h2>
      {invitations.length === 0 ? <p className="muted">{t("team.pendingNone")}</p> : null}
      <ul className="invitation-list" aria-labelledby="team-pending">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="invitation-row" data-invitation={invitation.email}>
            <div className="invitation-row__text">
              <span className="invitation-row__email">{invitation.email}</span>
              <span>
                {t(`team.roles.${invitation.role}`)}
                {invitation.role === "translator" && invitation.languages.length > 0
                  ? ` — ${invitation.languages.map((code) => languageLabel(code, locale)).join(", ")}`
                  : ""}
              </span>
              <span className="muted">
                {t("team.expires", { date: expiry(invitation.expiresAt) })}
                {invitation.createdBy ? ` · ${t("team.invitedBy", { email: invitation.createdBy })}` : ""}
              </span>
            </div>
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="revoke_invitation" />
              <input type="hidden" name="id" value={invitation.id} />
              <input type="hidden" name="email" value={invitation.email} />
              <button
                type="submit"
                className="button button--ghost button--small"
                aria-disabled={busy}
                aria-label={t("team.revokeOf", { email: invitation.email })}
              >
                {t("team.revoke")}
              </button>
            </Form>
          </li>
        ))}
      </ul>

      {removing ? (
        <ConfirmDialog
          title={t("team.removeTitle", { email: removing.email })}
          confirmLabel={t("team.removeConfirm")}
          onConfirm={confirmRemove}
          onCancel={() => {
            setRemoving(null);
            // After the modal dialog is gone: while it is open, nothing outside it can take focus.
            setTimeout(() => removeTrigger.current?.focus(), 0);
          }}
        >
          <p>{t("team.removeText")}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
