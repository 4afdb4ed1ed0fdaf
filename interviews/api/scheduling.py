"""Scheduling: a coach's availability (slots), the open slots a candidate books, and the
sessions booked (cancel, reschedule). Times are UTC ISO 8601 in and out, except a slot's
start as the coach types it: `starts_local` (no offset) with its IANA `time_zone`."""

from datetime import datetime
from zoneinfo import ZoneInfo

from django.urls import path
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.access import access_slot_publish
from interviews.models import Booking, CoachSlot
from interviews.selectors.scheduling import (
    booking_for,
    booking_solo_from,
    open_slots,
    slot_for,
    slots_of_coach,
    upcoming_bookings_for,
)
from interviews.selectors.stages import stage_for
from interviews.services.scheduling import (
    booking_cancel,
    booking_create,
    booking_reschedule,
    slot_delete,
    slot_update,
    slots_publish,
)

from .base import PracticeApi, StrictCharField, StrictIntegerField, StrictSerializer
from .practice_serializers import UsernameField


class SlotSerializer(serializers.ModelSerializer):
    coach = UsernameField()
    ends_at = serializers.DateTimeField(read_only=True)
    starts_local = serializers.SerializerMethodField()
    is_booked = serializers.SerializerMethodField()

    class Meta:
        model = CoachSlot
        fields = [
            "id",
            "coach",
            "starts_at",
            "ends_at",
            "minutes",
            "time_zone",
            "starts_local",
            "is_booked",
        ]

    @extend_schema_field(OpenApiTypes.STR)
    def get_starts_local(self, obj: CoachSlot) -> str:
        """The start as the coach entered it, in `time_zone`, without an offset."""
        local = obj.starts_at.astimezone(ZoneInfo(obj.time_zone))
        return local.replace(tzinfo=None).isoformat(timespec="minutes")

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_is_booked(self, obj: CoachSlot) -> bool:
        return bool(getattr(obj, "is_booked", False))


class BookingSerializer(serializers.ModelSerializer):
    candidate = UsernameField()
    coach = UsernameField()
    ends_at = serializers.DateTimeField(read_only=True)
    stage_title = serializers.CharField(source="stage.title", read_only=True)
    stage_kind = serializers.CharField(source="stage.kind", read_only=True)
    loop = serializers.IntegerField(source="stage.loop_id", read_only=True)
    loop_title = serializers.CharField(source="stage.loop.title", read_only=True)
    room_path = serializers.SerializerMethodField()
    solo_from = serializers.SerializerMethodField()

    class Meta:
        model = Booking
        fields = [
            "id",
            "stage",
            "stage_title",
            "stage_kind",
            "loop",
            "loop_title",
            "candidate",
            "coach",
            "slot",
            "starts_at",
            "ends_at",
            "minutes",
            "status",
            "sequence",
            "room_path",
            "solo_from",
        ]

    @extend_schema_field(OpenApiTypes.DATETIME)
    def get_solo_from(self, obj: Booking) -> str:
        """From when the candidate may continue solo if the coach has not started it."""
        return booking_solo_from(obj).isoformat().replace("+00:00", "Z")

    @extend_schema_field(OpenApiTypes.STR)
    def get_room_path(self, obj: Booking) -> str:
        """The room as the caller opens it: the coach's console room or the candidate's."""
        user = self.context["request"].user
        if user.pk == obj.coach_id:
            return f"/coach/stages/{obj.stage_id}"
        return f"/stages/{obj.stage_id}"


class SlotInputSerializer(StrictSerializer):
    starts_local = serializers.DateTimeField(
        help_text="Wall-clock start in `time_zone`, e.g. 2030-01-15T09:00 (an offset is ignored)."
    )
    time_zone = StrictCharField(max_length=64, help_text="IANA zone, e.g. America/New_York.")
    minutes = StrictIntegerField(min_value=1, max_value=24 * 60)


class SlotPublishInputSerializer(SlotInputSerializer):
    weeks = StrictIntegerField(
        required=False, default=1, min_value=1, help_text="Repeat weekly this many weeks."
    )


def _wall_clock(value: datetime) -> datetime:
    # DRF makes naive input aware in the server zone (UTC); the coach meant their own zone.
    return value.replace(tzinfo=None)


class SlotsApi(PracticeApi):
    @extend_schema(
        responses={200: SlotSerializer(many=True)},
        description="The calling coach's slots from the last day on (booked ones flagged).",
    )
    def get(self, request: Request) -> Response:
        access_slot_publish(request.user)
        return Response(SlotSerializer(slots_of_coach(request.user), many=True).data)

    @extend_schema(
        request=SlotPublishInputSerializer,
        responses={201: SlotSerializer(many=True)},
        description="Publish a slot (or the same local time on `weeks` weeks); 409 "
        "`slot_overlaps` if it overlaps one of the coach's own slots.",
    )
    def post(self, request: Request) -> Response:
        serializer = SlotPublishInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        slots = slots_publish(
            coach=request.user,
            starts_local=_wall_clock(data["starts_local"]),
            time_zone=data["time_zone"],
            minutes=data["minutes"],
            weeks=data["weeks"],
        )
        return Response(SlotSerializer(slots, many=True).data, status=status.HTTP_201_CREATED)


class SlotDetailApi(PracticeApi):
    @extend_schema(
        request=SlotInputSerializer,
        responses={200: SlotSerializer},
        description="Move or resize an open slot; 409 `slot_booked` once it is booked.",
    )
    def put(self, request: Request, slot_id: int) -> Response:
        slot = slot_for(request.user, slot_id)
        serializer = SlotInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        slot = slot_update(
            slot=slot,
            actor=request.user,
            starts_local=_wall_clock(data["starts_local"]),
            time_zone=data["time_zone"],
            minutes=data["minutes"],
        )
        return Response(SlotSerializer(slot).data)

    @extend_schema(request=None, responses={204: None}, description="Withdraw an open slot.")
    def delete(self, request: Request, slot_id: int) -> Response:
        slot_delete(slot=slot_for(request.user, slot_id), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class OpenSlotsApi(PracticeApi):
    @extend_schema(
        responses={200: SlotSerializer(many=True)},
        description="Slots in the future that nobody has booked, soonest first.",
    )
    def get(self, request: Request) -> Response:
        return Response(SlotSerializer(open_slots()[:500], many=True).data)


class BookingInputSerializer(StrictSerializer):
    stage = StrictIntegerField()
    slot = StrictIntegerField()


class BookingsApi(PracticeApi):
    @extend_schema(
        responses={200: BookingSerializer(many=True)},
        description="The caller's upcoming sessions, as candidate or as coach.",
    )
    def get(self, request: Request) -> Response:
        bookings = upcoming_bookings_for(request.user, timezone.now())
        return Response(BookingSerializer(bookings, many=True, context={"request": request}).data)

    @extend_schema(
        request=BookingInputSerializer,
        responses={201: BookingSerializer},
        description="The loop's candidate books an open slot for a pending live round of "
        "their coached loop; the slot's coach claims the stage. 409: `slot_taken`, "
        "`stage_already_booked`, `booking_overlaps`, `stage_taken`; 400 `booking_in_past`.",
    )
    def post(self, request: Request) -> Response:
        serializer = BookingInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        stage = stage_for(request.user, serializer.validated_data["stage"])
        slot = slot_for(request.user, serializer.validated_data["slot"])
        booking = booking_create(stage=stage, slot=slot, actor=request.user)
        return Response(
            BookingSerializer(booking, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class BookingCancelApi(PracticeApi):
    @extend_schema(
        request=None,
        responses={200: BookingSerializer},
        description="Its candidate, its coach or an admin cancels the session.",
    )
    def post(self, request: Request, booking_id: int) -> Response:
        booking = booking_cancel(booking=booking_for(request.user, booking_id), actor=request.user)
        return Response(BookingSerializer(booking, context={"request": request}).data)


class RescheduleInputSerializer(StrictSerializer):
    slot = StrictIntegerField()


class BookingRescheduleApi(PracticeApi):
    @extend_schema(
        request=RescheduleInputSerializer,
        responses={200: BookingSerializer},
        description="Move the session to another open slot, atomically (same invite UID).",
    )
    def post(self, request: Request, booking_id: int) -> Response:
        booking = booking_for(request.user, booking_id)
        serializer = RescheduleInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        slot = slot_for(request.user, serializer.validated_data["slot"])
        booking = booking_reschedule(booking=booking, slot=slot, actor=request.user)
        return Response(BookingSerializer(booking, context={"request": request}).data)


urlpatterns = [
    path("slots/", SlotsApi.as_view(), name="slots"),
    path("slots/open/", OpenSlotsApi.as_view(), name="slots-open"),
    path("slots/<int:slot_id>/", SlotDetailApi.as_view(), name="slot-detail"),
    path("bookings/", BookingsApi.as_view(), name="bookings"),
    path("bookings/<int:booking_id>/cancel/", BookingCancelApi.as_view(), name="booking-cancel"),
    path(
        "bookings/<int:booking_id>/reschedule/",
        BookingRescheduleApi.as_view(),
        name="booking-reschedule",
    ),
]
