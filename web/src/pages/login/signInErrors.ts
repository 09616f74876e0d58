// Which message the sign-in screen shows for a failed code check (spec section 8).
import { ApiError } from '../../api/client';
import { MSG } from '../../spec/messages';

export function otpFailureToast(error: unknown): { title: string; text: string } {
  if (error instanceof ApiError) {
    if (error.code === 'invalid_otp') return { title: MSG.invalidVerificationCode, text: MSG.tryAgainOrNewCode };
    if (error.status >= 400 && error.status < 500) {
      return { title: MSG.verificationFailed, text: error.serverMessage || MSG.verificationFailedDefault };
    }
  }
  return { title: MSG.couldNotVerifyOtp, text: MSG.pleaseTryAgain };
}
