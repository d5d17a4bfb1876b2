from django.contrib import admin

from games.ghoulash.models import BoxCard, GhoulashBox


class BoxCardInline(admin.TabularInline):
    model = BoxCard
    extra = 0


@admin.register(GhoulashBox)
class GhoulashBoxAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "created_at")
    inlines = [BoxCardInline]
