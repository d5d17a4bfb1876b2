"""Admin: the catalogue (house rules are added here, no code needed) and crews.

Catalogue rows added here default to house_rule=True and show "(house rule)"
in lists and choosers; the loader never overwrites or deletes them.
"""

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from crewbuilder.models import (
    BodyMod,
    Character,
    CharacterBodyMod,
    CharacterGear,
    CharacterTrait,
    Complication,
    Crew,
    EnvironmentEffect,
    GameSystem,
    Item,
    Keyword,
    Npc,
    Scenario,
    Sorcery,
    TableRow,
    Trait,
)


@admin.register(GameSystem)
class GameSystemAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "edition", "catalogue_version")
    readonly_fields = ("catalogue_version",)


class CatalogueEntryAdmin(admin.ModelAdmin):
    list_display = ("entry_name", "slug", "cost", "number", "section", "system", "house_rule")
    list_filter = ("system", "house_rule")
    search_fields = ("name", "slug", "text")
    prepopulated_fields = {"slug": ("name",)}
    ordering = ("system", "position", "id")

    @admin.display(description="name", ordering="name")
    def entry_name(self, obj):
        return obj.label  # "(house rule)" appended for house rules


@admin.register(Trait, BodyMod, Keyword, Sorcery, Scenario, Complication, EnvironmentEffect, Npc)
class PlainCatalogueAdmin(CatalogueEntryAdmin):
    pass


@admin.register(Item)
class ItemAdmin(CatalogueEntryAdmin):
    list_display = ("entry_name", "slug", "category", "kind", "cost", "hands", "damage", "range", "armor", "system", "house_rule")
    list_filter = ("system", "category", "kind", "house_rule")


@admin.register(TableRow)
class TableRowAdmin(CatalogueEntryAdmin):
    list_display = ("entry_name", "table", "number", "system", "house_rule")
    list_filter = ("system", "table", "house_rule")


class CharacterTraitInline(admin.TabularInline):
    model = CharacterTrait
    extra = 0


class CharacterBodyModInline(admin.TabularInline):
    model = CharacterBodyMod
    extra = 0


class CharacterGearInline(admin.TabularInline):
    model = CharacterGear
    extra = 0


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name", "crew", "position")
    search_fields = ("name", "crew__name")
    inlines = [CharacterTraitInline, CharacterBodyModInline, CharacterGearInline]


class CharacterInline(admin.TabularInline):
    model = Character
    extra = 0
    show_change_link = True
    fields = ("name", "position", "strength", "toughness", "agility", "intellect", "discipline")


@admin.register(Crew)
class CrewAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "system", "budget", "updated_at")
    list_filter = ("system",)
    search_fields = ("name", "owner__username")
    readonly_fields = ("created_at", "updated_at", "version", "validation_report")
    inlines = [CharacterInline]

    @admin.display(description="validation")
    def validation_report(self, obj):
        # The same validator as the web pages, import and the CLI.
        from crewbuilder.validation import validate_crew_model

        if obj.pk is None:
            return "-"
        crew = Crew.objects.with_everything().get(pk=obj.pk)
        report = validate_crew_model(crew)
        findings = [(f["code"], f.get("character") or "crew", f["message"]) for f in report["errors"] + report["warnings"]]
        header = f"{'valid' if report['valid'] else 'NOT valid'}, {report.get('points')} / {report.get('budget')} points"
        return format_html("<div>{}</div>{}", header, format_html_join("", "<div>{}: {} ({})</div>", findings))
