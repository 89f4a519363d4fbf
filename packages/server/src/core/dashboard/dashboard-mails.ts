/**
 * The words of the emails the dashboard sends (docs/dashboard.md "Language"), in French and in
 * English. Each is written in the language its receiver chose in the dashboard (`users.language`);
 * a receiver who never chose one (or has no account yet) gets English, as before the choice existed,
 * except where the text says otherwise (an invitation to a new address follows its inviter).
 */
export const mailLanguages = ['fr', 'en'] as const;
export type MailLanguage = (typeof mailLanguages)[number];

export function isMailLanguage(value: unknown): value is MailLanguage {
  return value === 'fr' || value === 'en';
}

/** What an email says, before its receiver is named. */
export interface MailWords {
  subject: string;
  text: string;
}

const roleNames: Record<MailLanguage, Record<string, string>> = {
  fr: { owner: 'propriétaire', admin: 'administrateur', developer: 'développeur', finance: 'finance', viewer: 'lecteur' },
  en: { owner: 'owner', admin: 'admin', developer: 'developer', finance: 'finance', viewer: 'viewer' },
};

const approvalKindNames: Record<MailLanguage, Record<string, string>> = {
  fr: { payout: 'un décaissement', batch: 'un paiement groupé', transfer: 'un transfert', settlement: 'un reversement', refund: 'un remboursement' },
  en: { payout: 'a payout', batch: 'a bulk payment', transfer: 'a transfer', settlement: 'a settlement', refund: 'a refund' },
};

/** An amount in centimes, written out in the currency's units (12 500,5 XOF; 12,500.5 XOF). */
function amountText(language: MailLanguage, amountMinor: number, currency: string): string {
  return `${new Intl.NumberFormat(language === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 2 }).format(amountMinor / 100)} ${currency}`;
}

export const dashboardMails = {
  approvalWaiting(
    language: MailLanguage,
    input: { maker: string; merchant: string; kind: string; amountMinor: number; currency: string; expiresAt: string | null; link: string },
  ): MailWords {
    const what = `${approvalKindNames[language][input.kind] ?? input.kind} (${amountText(language, input.amountMinor, input.currency)})`;
    return language === 'fr'
      ? {
          subject: `${input.merchant} : ${input.maker} demande votre approbation`,
          text: `${input.maker} a soumis ${what} en production pour ${input.merchant}. Il attend l’approbation d’un autre membre${input.expiresAt ? ` jusqu’au ${input.expiresAt} (UTC), puis il expire` : ''}.\n\nApprouver ou refuser :\n${input.link}\n`,
        }
      : {
          subject: `${input.merchant}: ${input.maker} asks for your approval`,
          text: `${input.maker} submitted ${what} in live mode for ${input.merchant}. It waits for another member's approval${input.expiresAt ? ` until ${input.expiresAt} (UTC), then expires` : ''}.\n\nApprove or reject:\n${input.link}\n`,
        };
  },

  accountExists(language: MailLanguage, links: { signIn: string; passwordReset: string }): MailWords {
    return language === 'fr'
      ? {
          subject: 'Votre compte Akwe',
          text: `Quelqu’un (peut-être vous) a essayé de créer un compte Akwe avec cette adresse, qui en a déjà un.\n\nSe connecter : ${links.signIn}\nMot de passe oublié ? ${links.passwordReset}\n`,
        }
      : {
          subject: 'Your Akwe account',
          text: `Someone (perhaps you) tried to sign up to Akwe with this address, which has an account already.\n\nSign in: ${links.signIn}\nForgot your password? ${links.passwordReset}\n`,
        };
  },

  verifyEmail(language: MailLanguage, name: string, link: string): MailWords {
    return language === 'fr'
      ? {
          subject: 'Vérifiez votre adresse e-mail pour Akwe',
          text: `Bienvenue sur Akwe, ${name}.\n\nOuvrez ce lien pour vérifier votre adresse (il est valable 48 heures) :\n${link}\n`,
        }
      : {
          subject: 'Verify your email address for Akwe',
          text: `Welcome to Akwe, ${name}.\n\nOpen this link to verify your address (it works for 48 hours):\n${link}\n`,
        };
  },

  invitation(language: MailLanguage, input: { inviter: string; merchant: string; role: string; link: string }): MailWords {
    const role = roleNames[language][input.role] ?? input.role;
    return language === 'fr'
      ? {
          subject: `${input.inviter} vous invite à rejoindre ${input.merchant} sur Akwe`,
          text: `${input.inviter} vous invite à rejoindre ${input.merchant} sur Akwe avec le rôle ${role}.\n\nAccepter (le lien est valable 7 jours) :\n${input.link}\n`,
        }
      : {
          subject: `${input.inviter} invites you to ${input.merchant} on Akwe`,
          text: `${input.inviter} invites you to join ${input.merchant} on Akwe as ${role}.\n\nAccept (the link works for 7 days):\n${input.link}\n`,
        };
  },

  passwordReset(language: MailLanguage, link: string): MailWords {
    return language === 'fr'
      ? {
          subject: 'Réinitialisez votre mot de passe Akwe',
          text: `Ouvrez ce lien pour choisir un nouveau mot de passe (il est valable une heure) :\n${link}\n\nSi vous n’avez rien demandé, ignorez cet e-mail : votre mot de passe ne change pas.\n`,
        }
      : {
          subject: 'Reset your Akwe password',
          text: `Open this link to choose a new password (it works for one hour):\n${link}\n\nIf you did not ask for this, ignore this email: your password stays as it is.\n`,
        };
  },

  kycValidated(language: MailLanguage, merchant: string, link: string): MailWords {
    return language === 'fr'
      ? {
          subject: `${merchant} : votre KYC est validé`,
          text: `Les documents de ${merchant} sont validés. Vous pouvez maintenant passer le tableau de bord en production et créer des clés d’API de production.\n\n${link}\n`,
        }
      : {
          subject: `${merchant}: your KYC is validated`,
          text: `The documents of ${merchant} are validated. You can now switch the dashboard to live and create live API keys.\n\n${link}\n`,
        };
  },

  kycRejected(language: MailLanguage, merchant: string, reason: string, link: string): MailWords {
    return language === 'fr'
      ? {
          subject: `${merchant} : votre dossier KYC a été refusé`,
          text: `Les documents de ${merchant} n’ont pas été acceptés, pour cette raison :\n\n${reason}\n\nCorrigez-les et soumettez-les de nouveau :\n${link}\n`,
        }
      : {
          subject: `${merchant}: your KYC submission was rejected`,
          text: `The documents of ${merchant} were not accepted, for this reason:\n\n${reason}\n\nCorrect them and submit again:\n${link}\n`,
        };
  },
};

/** The language of an email to a user: theirs, or English when they never chose one. */
export function mailLanguageOf(user: { language: MailLanguage | null } | undefined, fallback: MailLanguage = 'en'): MailLanguage {
  return user?.language ?? fallback;
}
