import { defineTexts } from '../../i18n.js';

export const developerTexts = defineTexts(
  {
    keys_title: 'Clés d’API',
    keys_list: 'Clés d’API de cet environnement',
    key: 'Clé',
    environment: 'Environnement',
    scopes: 'Droits',
    all_scopes: 'Tous les droits',
    created: 'Créée le',
    last_used: 'Dernière utilisation',
    never_used: 'Jamais utilisée',
    revoked: 'Révoquée le {date}',
    active: 'Active',
    revoke: 'Révoquer',
    revoke_question: 'Révoquer la clé {key} ? Les appels qui l’utilisent seront refusés aussitôt.',
    create_key: 'Créer une clé',
    create_key_title: 'Nouvelle clé ({environment})',
    scopes_legend: 'Droits de la clé (aucun coché : tous ceux de votre rôle)',
    new_key: 'Votre nouvelle clé',
    shown_once: 'Copiez-la maintenant : elle ne sera plus jamais affichée.',
    secret_shown_once: 'Copiez-le maintenant : il ne sera plus jamais affiché.',
    no_keys: 'Aucune clé dans cet environnement.',
    live_needs_kyc:
      'Avant la validation du KYC, une clé live encaisse seulement : remboursements, paiements sortants, lots, transferts et règlements attendent la validation (créez alors une nouvelle clé).',
    beyond_role: 'Cette clé dépasse le rôle actuel de la personne qui l’a créée ({scopes}) : révoquez-la et créez-en une autre.',
    webhooks_title: 'Webhooks',
    endpoints_list: 'Points de terminaison',
    url: 'URL',
    events: 'Événements',
    all_events: 'Tous les événements',
    events_legend: 'Événements reçus (aucun coché : tous)',
    description: 'Description',
    enabled: 'Activé',
    disabled: 'Désactivé',
    state: 'État',
    create_endpoint: 'Ajouter le point de terminaison',
    create_endpoint_title: 'Nouveau point de terminaison ({environment})',
    signing_secret: 'Secret de signature',
    open: 'Ouvrir',
    no_endpoints: 'Aucun point de terminaison dans cet environnement.',
    endpoint_title: 'Point de terminaison',
    api_version: 'Version',
    disable: 'Désactiver',
    enable: 'Réactiver',
    disable_question: 'Désactiver ce point de terminaison ? Ses livraisons en attente seront annulées.',
    rotate: 'Changer le secret',
    rotate_question: 'Changer le secret de signature ? L’ancien signe encore pendant 24 heures.',
    test_event: 'Envoyer un événement de test',
    test_event_type: 'Type d’événement',
    test_event_auto: 'Automatique',
    test_event_sent: 'Événement de test envoyé : il apparaît ci-dessous.',
    deliveries: 'Journal des livraisons',
    no_deliveries: 'Aucune livraison pour le moment.',
    event: 'Événement',
    attempts: 'Essais',
    response: 'Réponse',
    attempt_details: 'Essais de la livraison {id}',
    attempt_line: 'Essai {number}, {date} : {status} en {ms} ms',
    no_answer: 'pas de réponse',
    request: 'Voir la requête',
    request_body: 'Corps de la requête (événement)',
    resend: 'Renvoyer',
    resent: 'Renvoyé : la livraison reprend.',
    refresh: 'Actualiser',
  },
  {
    keys_title: 'API keys',
    keys_list: 'API keys of this environment',
    key: 'Key',
    environment: 'Environment',
    scopes: 'Scopes',
    all_scopes: 'Every scope',
    created: 'Created',
    last_used: 'Last used',
    never_used: 'Never used',
    revoked: 'Revoked on {date}',
    active: 'Active',
    revoke: 'Revoke',
    revoke_question: 'Revoke the key {key}? Calls using it are refused at once.',
    create_key: 'Create a key',
    create_key_title: 'New key ({environment})',
    scopes_legend: 'Scopes of the key (none ticked: every scope of your role)',
    new_key: 'Your new key',
    shown_once: 'Copy it now: it will never be shown again.',
    secret_shown_once: 'Copy it now: it will never be shown again.',
    no_keys: 'No key in this environment.',
    live_needs_kyc: 'Until the KYC is validated, a live key only collects: refunds, payouts, bulk, transfers and settlements wait for the validation (then make a new key).',
    beyond_role: 'This key holds more than the current role of the person who made it allows ({scopes}): revoke it and make another.',
    webhooks_title: 'Webhooks',
    endpoints_list: 'Endpoints',
    url: 'URL',
    events: 'Events',
    all_events: 'Every event',
    events_legend: 'Events received (none ticked: all)',
    description: 'Description',
    enabled: 'Enabled',
    disabled: 'Disabled',
    state: 'State',
    create_endpoint: 'Add the endpoint',
    create_endpoint_title: 'New endpoint ({environment})',
    signing_secret: 'Signing secret',
    open: 'Open',
    no_endpoints: 'No endpoint in this environment.',
    endpoint_title: 'Endpoint',
    api_version: 'Version',
    disable: 'Disable',
    enable: 'Enable again',
    disable_question: 'Disable this endpoint? Its waiting deliveries are cancelled.',
    rotate: 'Rotate the secret',
    rotate_question: 'Rotate the signing secret? The old one keeps signing for 24 hours.',
    test_event: 'Send a test event',
    test_event_type: 'Event type',
    test_event_auto: 'Automatic',
    test_event_sent: 'Test event sent: it shows below.',
    deliveries: 'Delivery log',
    no_deliveries: 'No delivery yet.',
    event: 'Event',
    attempts: 'Tries',
    response: 'Response',
    attempt_details: 'Tries of delivery {id}',
    attempt_line: 'Try {number}, {date}: {status} in {ms} ms',
    no_answer: 'no answer',
    request: 'Show the request',
    request_body: 'Request body (the event)',
    resend: 'Resend',
    resent: 'Resent: the delivery starts again.',
    refresh: 'Refresh',
  },
);

/** The API's scopes (docs/authentication): what a key may be limited to. */
export const scopes = [
  'collect:read',
  'collect:write',
  'collect:refund',
  'payout:read',
  'payout:write',
  'bulk:read',
  'bulk:write',
  'transfers:read',
  'transfers:write',
  'settlements:read',
  'settlements:write',
  'webhooks:read',
  'webhooks:write',
] as const;

/** Event families an endpoint can subscribe to (docs/webhooks.md). */
export const eventFamilies = ['collect.payment.*', 'collect.refund.*', 'payout.*', 'bulk_payment.*', 'transfer.*', 'settlement.*', 'settlement_account.*'] as const;

/** Types offered for a test event (the server refuses one the endpoint does not receive). */
export const testEventTypes = [
  'collect.payment.completed',
  'collect.payment.failed',
  'collect.refund.completed',
  'payout.completed',
  'payout.failed',
  'bulk_payment.completed',
  'transfer.received',
  'settlement.paid',
] as const;

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  api_version: string;
  environment: string;
  secret?: string;
  created_at: string;
}

export interface Delivery {
  id: string;
  event_id: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  attempts_log?: { number: number; attempted_at: string; status_code: number | null; duration_ms: number | null; response_excerpt: string | null; error: string | null }[];
}
