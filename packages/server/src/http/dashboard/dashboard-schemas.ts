import { Type } from 'typebox';
import { actions, roles } from '../../core/dashboard/permissions.js';

const Email = Type.String({ minLength: 3, maxLength: 254, description: 'An email address (compared without regard to case).' });
const Password = Type.String({ minLength: 1, maxLength: 256, description: '10 to 256 characters.' });
const Token = Type.String({ minLength: 1, maxLength: 100, description: 'The `token` of the emailed link.' });
const Code = Type.String({ minLength: 1, maxLength: 10, description: 'The 6-digit code of the authenticator app.' });
export const RoleSchema = Type.Enum(roles, { description: 'owner, admin, developer, finance or viewer (docs/dashboard.md, "Roles").' });
export const NoContent = Type.Null({ description: 'No content.' });

export const SignUpBody = Type.Object(
  { email: Email, password: Password, name: Type.String({ minLength: 1, maxLength: 200 }), merchant_name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false, title: 'DashboardSignUpRequest' },
);
export const SignInBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 256 }) },
  { additionalProperties: false, title: 'DashboardSignInRequest' },
);
export const TotpSignInBody = Type.Object(
  { challenge_token: Type.String({ minLength: 1, maxLength: 2000 }), code: Code },
  { additionalProperties: false, title: 'DashboardTotpSignInRequest' },
);
export const TokenBody = Type.Object({ token: Token }, { additionalProperties: false, title: 'DashboardEmailTokenRequest' });
export const PasswordResetBody = Type.Object({ email: Type.String({ maxLength: 254 }) }, { additionalProperties: false, title: 'DashboardPasswordResetRequest' });
export const PasswordResetCompleteBody = Type.Object({ token: Token, password: Password }, { additionalProperties: false, title: 'DashboardPasswordResetCompleteRequest' });
export const AcceptInvitationBody = Type.Object(
  {
    token: Token,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Required when the invited address has no account yet.' })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Required when the invited address has no account yet.' })),
  },
  { additionalProperties: false, title: 'DashboardAcceptInvitationRequest' },
);
export const InvitationBody = Type.Object({ email: Email, role: RoleSchema }, { additionalProperties: false, title: 'DashboardInvitationRequest' });
export const RoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false, title: 'DashboardRoleChangeRequest' });
export const CodeBody = Type.Object({ code: Code }, { additionalProperties: false, title: 'DashboardTotpCodeRequest' });
export const MerchantParams = Type.Object({ merchantId: Type.String({ minLength: 1, maxLength: 64 }) });
export const MemberParams = Type.Object({ merchantId: Type.String({ minLength: 1, maxLength: 64 }), userId: Type.String({ minLength: 1, maxLength: 64 }) });

export const UserObject = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    email_verified: Type.Boolean(),
    totp_enabled: Type.Boolean(),
  },
  { title: 'DashboardUser' },
);

export const SessionObject = Type.Object(
  {
    object: Type.Literal('dashboard_session'),
    access_token: Type.String({ description: 'Send as `Authorization: Bearer <token>`; valid for `expires_in` seconds.' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    csrf_token: Type.String({ description: 'Send as `X-CSRF-Token` with POST /auth/refresh and /auth/sign-out (also in the `akwe_csrf` cookie).' }),
    user: UserObject,
  },
  { title: 'DashboardSession' },
);

export const SignInAnswer = Type.Union(
  [
    SessionObject,
    Type.Object(
      {
        object: Type.Literal('totp_challenge'),
        totp_required: Type.Literal(true),
        challenge_token: Type.String({ description: 'Send with the code to POST /auth/totp.' }),
        expires_in: Type.Integer(),
      },
      { title: 'DashboardTotpChallenge' },
    ),
  ],
  { title: 'DashboardSignInAnswer' },
);

export const Accepted = Type.Object({ status: Type.Literal('accepted') }, { title: 'DashboardAccepted' });

export const MeObject = Type.Object(
  {
    user: UserObject,
    environment: Type.Union([Type.Literal('test'), Type.Literal('live')], { description: 'The active environment (X-Service-Environment; test when absent).' }),
    memberships: Type.Array(
      Type.Object({
        merchant_id: Type.String(),
        merchant_name: Type.String(),
        role: RoleSchema,
        permissions: Type.Array(Type.Enum(actions), { description: 'What the role allows (the roles table of docs/dashboard.md).' }),
      }),
    ),
  },
  { title: 'DashboardMe' },
);

export const MemberObject = Type.Object(
  { user_id: Type.String(), email: Type.String(), name: Type.String(), role: RoleSchema, created_at: Type.String({ format: 'date-time' }) },
  { title: 'DashboardMember' },
);
export const MemberList = Type.Object({ object: Type.Literal('list'), data: Type.Array(MemberObject) }, { title: 'DashboardMemberList' });
export const MembershipObject = Type.Object({ merchant_id: Type.String(), role: RoleSchema }, { title: 'DashboardMembership' });
export const TotpEnrolment = Type.Object(
  { otpauth_url: Type.String({ description: 'For the authenticator app (as a QR code).' }), secret: Type.String({ description: 'The same secret in base32, to type by hand.' }) },
  { title: 'DashboardTotpEnrolment' },
);
