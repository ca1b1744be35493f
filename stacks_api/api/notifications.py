"""Being told when no app is open: Web Push subscriptions, the server's push key,
and each account's notification preferences (docs/api.md, Notifications)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from .auth import BEARER
from .blueprint import Blueprint
from .caching import NEVER_STORE, PRIVATE
from .games import problems
from .notification_schemas import (
    NewSubscriptionSchema,
    PreferencesChangeSchema,
    PreferencesSchema,
    PushKeySchema,
    SubscriptionListSchema,
    SubscriptionMadeSchema,
)
from .players import me, service

blp = Blueprint("notifications", __name__, url_prefix="/api/v1",
                description="Notifications: Web Push and preferences")  # fmt: skip
CHANGE_EXAMPLE = {"events": {"chat": []},
                  "quiet_hours": {"from": "22:30", "to": "07:00", "tz": "UTC"}}  # fmt: skip
EXAMPLE_KEYS = {"p256dh": "B" + "A" * 86, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}


@blp.route("/push/key")
class PushKey(MethodView):
    @blp.response(200, PushKeySchema)
    @problems(501, 503)
    @blp.doc(operationId="getPushKey", security=[])
    def get(self) -> Any:
        """The server's VAPID public key, to subscribe a browser with"""
        return (
            {"public_key": service().pushes.key()},
            200,
            {"Cache-Control": "public, max-age=3600"},
        )


@blp.route("/players/me/push")
class Subscriptions(MethodView):
    @blp.response(200, SubscriptionListSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 503)
    @blp.doc(operationId="listPushSubscriptions")
    def get(self) -> Any:
        """Your push subscriptions, oldest first"""
        return {"subscriptions": service().pushes.of(me())}, 200, PRIVATE

    @blp.arguments(NewSubscriptionSchema(), example={
        "endpoint": "https://push.example.net/send/abc", "keys": EXAMPLE_KEYS})  # fmt: skip
    @blp.response(201, SubscriptionMadeSchema)
    @blp.doc(security=BEARER)
    @problems(400, 401, 403, 413, 422, 429, 503)
    @blp.doc(operationId="subscribePush")
    def post(self, body: dict[str, Any]) -> Any:
        """Subscribe a browser to pushes (what `PushSubscription.toJSON()` gives)

        At most 5 an account: a sixth drops the oldest; the same endpoint again
        replaces it. The endpoint's host must be public (422 `url_refused`).
        A subscription the push service answers 404 or 410 for is removed.
        """
        return {"subscription": service().pushes.subscribe(me(), body)}, 201, NEVER_STORE


@blp.route("/players/me/push/<subscription_id>")
class Subscription(MethodView):
    @blp.response(204)
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 503)
    @blp.doc(operationId="removePushSubscription")
    def delete(self, subscription_id: str) -> Any:
        """Remove one of your push subscriptions"""
        service().pushes.remove(me(), subscription_id)
        return "", 204, NEVER_STORE


@blp.route("/players/me/notifications")
class Notifications(MethodView):
    @blp.response(200, PreferencesSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 503)
    @blp.doc(operationId="getNotificationPreferences")
    def get(self) -> Any:
        """Where each kind of event goes, and your quiet hours"""
        return service().preferences.of(me()), 200, PRIVATE

    @blp.arguments(PreferencesChangeSchema(), example=CHANGE_EXAMPLE)
    @blp.response(200, PreferencesSchema)
    @blp.doc(security=BEARER)
    @problems(400, 401, 403, 413, 422, 429, 503)
    @blp.doc(operationId="changeNotificationPreferences")
    def patch(self, body: dict[str, Any]) -> Any:
        """Change where some kinds of event go, or your quiet hours (null: none)"""
        return service().preferences.change(me(), body), 200, PRIVATE
