// Stripe's test PaymentMethods (docs.stripe.com/testing, read 2026-11): each magic id stands for a test card
// number, and using one makes a new PaymentMethod for that card. What the card does is Stripe's documented behaviour:
// cards that decline refuse to be saved too (attach and set-up check the card with its issuer), except
// pm_card_chargeCustomerFail, which saves and then declines every charge.

export type CardBehaviour =
  | { kind: 'succeeds' }
  /** Declines when saved and when charged. */
  | { kind: 'declines'; code: string; declineCode: string; message: string }
  /** Saves, then declines every charge. */
  | { kind: 'declines_after_attach'; code: string; declineCode: string; message: string }
  /** Asks its holder to authenticate every payment: off-session charges fail with authentication_required. */
  | { kind: 'authentication_required' };

export interface TestCard {
  brand: string;
  last4: string;
  funding: 'credit' | 'debit' | 'prepaid';
  behaviour: CardBehaviour;
}

const ok = { kind: 'succeeds' } as const;
const declined = (declineCode: string, message: string, code = 'card_declined'): CardBehaviour => ({ kind: 'declines', code, declineCode, message });
const genericDecline = declined('generic_decline', 'Your card was declined.');
const insufficientFunds = declined('insufficient_funds', 'Your card has insufficient funds.');
const lostCard = declined('lost_card', 'Your card was declined.');
const stolenCard = declined('stolen_card', 'Your card was declined.');

const card = (brand: string, last4: string, behaviour: CardBehaviour = ok, funding: TestCard['funding'] = 'credit'): TestCard => ({ brand, last4, funding, behaviour });

export const testCards: Record<string, TestCard> = {
  pm_card_visa: card('visa', '4242'),
  pm_card_visa_debit: card('visa', '5556', ok, 'debit'),
  pm_card_mastercard: card('mastercard', '4444'),
  pm_card_mastercard_debit: card('mastercard', '8210', ok, 'debit'),
  pm_card_mastercard_prepaid: card('mastercard', '5100', ok, 'prepaid'),
  pm_card_amex: card('amex', '8431'),
  pm_card_discover: card('discover', '1117'),
  pm_card_chargeDeclined: card('visa', '0002', genericDecline),
  pm_card_visa_chargeDeclined: card('visa', '0002', genericDecline),
  pm_card_chargeDeclinedInsufficientFunds: card('visa', '9995', insufficientFunds),
  pm_card_visa_chargeDeclinedInsufficientFunds: card('visa', '9995', insufficientFunds),
  pm_card_chargeDeclinedLostCard: card('visa', '9987', lostCard),
  pm_card_visa_chargeDeclinedLostCard: card('visa', '9987', lostCard),
  pm_card_chargeDeclinedStolenCard: card('visa', '9979', stolenCard),
  pm_card_visa_chargeDeclinedStolenCard: card('visa', '9979', stolenCard),
  pm_card_chargeDeclinedExpiredCard: card('visa', '0069', declined('expired_card', 'Your card has expired.', 'expired_card')),
  pm_card_chargeDeclinedIncorrectCvc: card('visa', '0127', declined('incorrect_cvc', "Your card's security code is incorrect.", 'incorrect_cvc')),
  pm_card_chargeDeclinedProcessingError: card('visa', '0119', declined('processing_error', 'An error occurred while processing your card. Try again in a little bit.', 'processing_error')),
  pm_card_chargeCustomerFail: card('visa', '0341', { kind: 'declines_after_attach', code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' }),
  pm_card_authenticationRequired: card('visa', '3184', { kind: 'authentication_required' }),
};

export const isTestCard = (id: string): boolean => Object.hasOwn(testCards, id);
