/**
 * The reference price of the log-form WTP: the paper's $250 a night. A module of its own so that
 * `bazaar analyze --help` can name it without loading the estimators.
 */
export const DEFAULT_REFERENCE_PRICE = 250;
