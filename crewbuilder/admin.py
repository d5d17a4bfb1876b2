"""Admin: the catalogue (house rules are added here, no code needed) and crews.

Catalogue rows added here default to house_rule=True and show "(house rule)"
in lists and choosers; the loader never overwrites or deletes them.
"""

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import F
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from crewbuilder.crew_reports import report_for
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
    RulesEntry,
    Scenario,
    Sorcery,
    TableRow,
    Trait,
    User,
)


@admin.register(GameSystem)
class GameSystemAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "edition", "rules_are_house_rules", "catalogue_version")
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


class ItemForm(forms.ModelForm):
    """Keeps a hand-made item in the shape the validator and the engine read."""

    # (category, kind) pairs the crew rules know how to count and check
    KINDS_BY_CATEGORY = {
        Item.WEAPON: {"melee", "ranged"},
        Item.ARMOR: {"armor", "shield", "suit"},
        Item.EQUIPMENT: {""},
    }

    class Meta:
        model = Item
        fields = "__all__"

    def clean_keywords(self):
        keywords = self.cleaned_data.get("keywords")
        if keywords in (None, ""):
            return []
        if not isinstance(keywords, list) or not all(isinstance(k, str) and k.strip() for k in keywords):
            raise forms.ValidationError('A list of keyword strings, e.g. ["Piercing 2", "Reach"].')
        return [k.strip() for k in keywords]

    def clean_effects(self):
        effects = self.cleaned_data.get("effects")
        if effects in (None, ""):
            return {}
        if not isinstance(effects, dict):
            raise forms.ValidationError('An object, e.g. {"move_modifier": -1}.')
        return effects

    def clean(self):
        data = super().clean()
        category, kind = data.get("category"), data.get("kind") or ""
        allowed = self.KINDS_BY_CATEGORY.get(category)
        if allowed is not None and kind not in allowed:
            choices = ", ".join(sorted(k or "-" for k in allowed))
            self.add_error("kind", f"A {category} takes kind: {choices}.")
        if category == Item.WEAPON:
            if data.get("hands") not in (1, 2):
                self.add_error("hands", "A weapon is one- or two-handed (1 or 2).")
            if data.get("damage") is None:
                self.add_error("damage", "A weapon needs a damage value.")
            if kind == "ranged" and data.get("range") is None:
                self.add_error("range", "A ranged weapon needs a range in inches.")
        if category == Item.ARMOR and data.get("armor") is None:
            data["armor"] = 0  # shields and suits grant no plain armor points
        return data


@admin.register(Item)
class ItemAdmin(CatalogueEntryAdmin):
    form = ItemForm
    list_display = (
        "entry_name",
        "slug",
        "category",
        "kind",
        "cost",
        "hands",
        "damage",
        "range",
        "armor",
        "system",
        "house_rule",
    )
    list_filter = ("system", "category", "kind", "house_rule")


@admin.register(RulesEntry)
class RulesEntryAdmin(CatalogueEntryAdmin):
    list_display = ("entry_name", "part", "slug", "number", "system", "house_rule")
    list_filter = ("system", "part", "house_rule")


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

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # A new crew version: an editor open on the old one is told, and the kept editor is drawn again.
        Crew.objects.filter(pk=form.instance.crew_id).update(version=F("version") + 1, updated_at=timezone.now())


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
        if obj.pk is None:
            return "-"
        crew = Crew.objects.with_everything().get(pk=obj.pk)
        report = report_for(crew)
        findings = [
            (f["code"], f.get("character") or "crew", f["message"]) for f in report["errors"] + report["warnings"]
        ]
        header = (
            f"{'valid' if report['valid'] else 'NOT valid'}, {report.get('points')} / {report.get('budget')} points"
        )
        return format_html("<div>{}</div>{}", header, format_html_join("", "<div>{}: {} ({})</div>", findings))


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    """Django's user admin (password change, groups, permissions) plus the paper setting."""

    fieldsets = (*DjangoUserAdmin.fieldsets, ("Printing", {"fields": ("paper_size",)}))
    list_display = ("username", "email", "is_staff", "is_active", "date_joined")
