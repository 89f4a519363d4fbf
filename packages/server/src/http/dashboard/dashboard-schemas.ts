import { Type } from 'typebox';
import { mailLanguages } from '../../core/dashboard/dashboard-mails.js';
import { actions, roles } from '../../core/dashboard/permissions.js';
import { scopes } from '../../core/merchants/scopes.js';

const Email = Type.String({ minLength: 3, maxLength: 254, description: 'An email address (compared without regard to case).' });
const Password = Type.String({ minLength: 1, maxLength: 256, description: '10 to 256 characters.' });
const Token = Type.String({ minLength: 1, maxLength: 100, description: 'The `token` of the emailed link.' });
const Code = Type.String({ minLength: 1, maxLength: 10, description: 'The 6-digit code of the authenticator app.' });
export const RoleSchema = Type.Enum(roles, { description: 'owner, admin, developer, finance or viewer (docs/dashboard.md, "Roles").' });
export const NoContent = Type.Null({ description: 'No content.' });

// Example values for the document (docs/dashboard.md): clearly fake tokens, addresses at example.com.
const USER_ID = '0193b1c2-3d4e-7f50-8162-7a8b9c0d1e2f';
const MERCHANT_ID = '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f';
const EMAILED_TOKEN = 'EXAMPLE-emailed-link-token-not-a-real-one-0';
const ACCESS_TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJFWEFNUExFIn0.EXAMPLE-signature-not-a-real-token';
const CHALLENGE_TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0b3RwIjoiRVhBTVBMRSJ9.EXAMPLE-challenge-not-a-real-token';
const userExample = { id: USER_ID, email: 'awa.koffi@example.com', name: 'Awa Koffi', email_verified: true, totp_enabled: false, language: 'fr' };
const memberExample = { user_id: USER_ID, email: 'awa.koffi@example.com', name: 'Awa Koffi', role: 'admin', created_at: '2026-06-02T08:15:00.000Z' };

export const LanguageSchema = Type.Enum(mailLanguages, { description: 'fr or en: the language of the emails sent to the user (docs/dashboard.md, "Language").' });
export const SignUpBody = Type.Object(
  {
    email: Email,
    password: Password,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    merchant_name: Type.String({ minLength: 1, maxLength: 200 }),
    language: Type.Optional(LanguageSchema),
  },
  {
    additionalProperties: false,
    title: 'DashboardSignUpRequest',
    examples: [{ email: 'awa.koffi@example.com', password: 'correct horse battery staple', name: 'Awa Koffi', merchant_name: 'Boulangerie Sainte-Rita', language: 'fr' }],
  },
);
export const LanguageBody = Type.Object({ language: LanguageSchema }, { additionalProperties: false, title: 'DashboardLanguageRequest', examples: [{ language: 'en' }] });
export const SignInBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 256 }) },
  { additionalProperties: false, title: 'DashboardSignInRequest', examples: [{ email: 'awa.koffi@example.com', password: 'correct horse battery staple' }] },
);
export const TotpSignInBody = Type.Object(
  { challenge_token: Type.String({ minLength: 1, maxLength: 2000 }), code: Code },
  { additionalProperties: false, title: 'DashboardTotpSignInRequest', examples: [{ challenge_token: CHALLENGE_TOKEN, code: '492039' }] },
);
export const TokenBody = Type.Object({ token: Token }, { additionalProperties: false, title: 'DashboardEmailTokenRequest', examples: [{ token: EMAILED_TOKEN }] });
export const PasswordResetBody = Type.Object(
  { email: Type.String({ maxLength: 254 }) },
  {
    additionalProperties: false,
    title: 'DashboardPasswordResetRequest',
    examples: [{ email: 'awa.koffi@example.com' }],
  },
);
export const PasswordResetCompleteBody = Type.Object(
  { token: Token, password: Password },
  {
    additionalProperties: false,
    title: 'DashboardPasswordResetCompleteRequest',
    examples: [{ token: EMAILED_TOKEN, password: 'a new long passphrase' }],
  },
);
export const AcceptInvitationBody = Type.Object(
  {
    token: Token,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Required when the invited address has no account yet.' })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Required when the invited address has no account yet.' })),
    language: Type.Optional(LanguageSchema),
  },
  {
    additionalProperties: false,
    title: 'DashboardAcceptInvitationRequest',
    examples: [{ token: EMAILED_TOKEN, name: 'Koffi Mensah', password: 'correct horse battery staple' }, { token: EMAILED_TOKEN }],
  },
);
export const InvitationBody = Type.Object(
  { email: Email, role: RoleSchema },
  {
    additionalProperties: false,
    title: 'DashboardInvitationRequest',
    examples: [{ email: 'koffi.mensah@example.com', role: 'finance' }],
  },
);
export const RoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false, title: 'DashboardRoleChangeRequest', examples: [{ role: 'developer' }] });
export const CodeBody = Type.Object({ code: Code }, { additionalProperties: false, title: 'DashboardTotpCodeRequest', examples: [{ code: '492039' }] });
export const MerchantParams = Type.Object({ merchantId: Type.String({ minLength: 1, maxLength: 64 }) });
export const MemberParams = Type.Object({ merchantId: Type.String({ minLength: 1, maxLength: 64 }), userId: Type.String({ minLength: 1, maxLength: 64 }) });

export const UserObject = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    email_verified: Type.Boolean(),
    totp_enabled: Type.Boolean(),
    language: Type.Union([LanguageSchema, Type.Null()], { description: 'The language of the emails sent to the user; null: never chosen (English).' }),
  },
  { title: 'DashboardUser', examples: [userExample] },
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
  {
    title: 'DashboardSession',
    examples: [
      {
        object: 'dashboard_session',
        access_token: ACCESS_TOKEN,
        token_type: 'Bearer',
        expires_in: 600,
        csrf_token: 'EXAMPLE-csrf-token-not-a-real-one-000000000',
        user: userExample,
      },
    ],
  },
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
      { title: 'DashboardTotpChallenge', examples: [{ object: 'totp_challenge', totp_required: true, challenge_token: CHALLENGE_TOKEN, expires_in: 300 }] },
    ),
  ],
  { title: 'DashboardSignInAnswer' },
);

export const Accepted = Type.Object({ status: Type.Literal('accepted') }, { title: 'DashboardAccepted' });

export const MeObject = Type.Object(
  {
    user: UserObject,
    environment: Type.Union([Type.Literal('test'), Type.Literal('live')], { description: 'The active environment (X-Service-Environment; test when absent).' }),
    platform_admin: Type.Boolean({ description: 'Whether the user may use the back office (/api/v1/admin); granted from the CLI only.' }),
    memberships: Type.Array(
      Type.Object({
        merchant_id: Type.String(),
        merchant_name: Type.String(),
        role: RoleSchema,
        permissions: Type.Array(Type.Enum(actions), { description: 'What the role allows (the roles table of docs/dashboard.md).' }),
        key_scopes: Type.Array(Type.Enum(scopes), {
          description: 'The API scopes a key this user creates may hold (the role’s; money-out scopes of a live key also wait for KYC validation).',
        }),
      }),
    ),
  },
  {
    title: 'DashboardMe',
    examples: [
      {
        user: userExample,
        environment: 'test',
        platform_admin: false,
        memberships: [{ merchant_id: MERCHANT_ID, merchant_name: 'Boulangerie Sainte-Rita', role: 'owner', permissions: [...actions], key_scopes: [...scopes] }],
      },
    ],
  },
);

export const MemberObject = Type.Object(
  { user_id: Type.String(), email: Type.String(), name: Type.String(), role: RoleSchema, created_at: Type.String({ format: 'date-time' }) },
  { title: 'DashboardMember', examples: [memberExample] },
);
export const MemberList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(MemberObject) },
  {
    title: 'DashboardMemberList',
    examples: [
      {
        object: 'list',
        data: [
          { ...memberExample, role: 'owner' },
          { ...memberExample, user_id: '0193b1d7-5e6f-7081-9263-8b9c0d1e2f30', email: 'koffi.mensah@example.com', name: 'Koffi Mensah', role: 'finance' },
        ],
      },
    ],
  },
);
export const MembershipObject = Type.Object(
  { merchant_id: Type.String(), role: RoleSchema },
  {
    title: 'DashboardMembership',
    examples: [{ merchant_id: MERCHANT_ID, role: 'finance' }],
  },
);
export const TotpEnrolment = Type.Object(
  { otpauth_url: Type.String({ description: 'For the authenticator app (as a QR code).' }), secret: Type.String({ description: 'The same secret in base32, to type by hand.' }) },
  {
    title: 'DashboardTotpEnrolment',
    examples: [
      {
        otpauth_url: 'otpauth://totp/Akwe:awa.koffi%40example.com?issuer=Akwe&secret=EXAMPLEEXAMPLEEXAMPLEEXAMPLE2345&algorithm=SHA1&digits=6&period=30',
        secret: 'EXAMPLEEXAMPLEEXAMPLEEXAMPLE2345',
      },
    ],
  },
);
