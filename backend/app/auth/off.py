"""GET /auth/me where sign-in is off (no OIDC_ISSUER): 200 {"sign_in": false}. The app asks it on
every page; a 404 there was an error in the browser's console each time (issue 37)."""

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

router = APIRouter(prefix="/auth", tags=["auth"])


class SignInOff(BaseModel):
    """This instance has no sign-in: every visitor is anonymous (docs/security.md)."""

    sign_in: Literal[False] = False


@router.get("/me", response_model=SignInOff)
def me() -> SignInOff:
    """Sign-in is off here: {"sign_in": false} (with sign-in on: the account, or 401)."""
    return SignInOff()
