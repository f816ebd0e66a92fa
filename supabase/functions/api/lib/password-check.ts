// The password check a login for an unknown account still makes. Supabase Auth answers an
// address it does not know at once, without comparing any hash, while a known address costs a
// bcrypt comparison: without this, how long a failed login takes would tell whether the account
// exists. The hash has the cost Supabase Auth and the local auth server use (10), over a random
// string nobody kept, so no password matches it.
import bcrypt from 'bcryptjs';

const UNKNOWN_ACCOUNT_HASH = '$2b$10$/KbGh73CI.lkuhrEhXjeVOxB0FpkFAT69KIvWVS9CzPdnpKjMb1Xu';

/** Compares the password as Auth would compare a known account's; never matches. */
export async function checkUnknownAccountPassword(password: string): Promise<false> {
  await bcrypt.compare(password, UNKNOWN_ACCOUNT_HASH);
  return false;
}
