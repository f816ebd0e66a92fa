/** Shown under every new-password field; the rule itself is `passwordRule` in @shared. */
export const PASSWORD_HINT = 'At least 8 characters with uppercase, lowercase, number and special character (@$!%*?&).';
