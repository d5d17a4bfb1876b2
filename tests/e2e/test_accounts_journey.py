from playwright.sync_api import Page, expect


def test_sign_up_log_out_log_in(page: Page, server_url: str):
    page.goto(server_url + "/")
    expect(page.get_by_role("heading", name="Build your crew. Run your game.")).to_be_visible()

    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("ghostwalker")
    page.get_by_label("Email address").fill("ghost@example.com")
    page.get_by_label("Password", exact=True).fill("neon-bones-1138")
    page.get_by_label("Password confirmation").fill("neon-bones-1138")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Welcome, ghostwalker")).to_be_visible()  # new: not "back"
    expect(page.get_by_text("You have no crews yet")).to_be_visible()

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Build your crew. Run your game.")).to_be_visible()
    expect(page.get_by_role("button", name="Log out")).to_have_count(0)

    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill("GhostWalker")
    page.get_by_label("Password").fill("neon-bones-1138")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Welcome back, ghostwalker")).to_be_visible()


def test_home_is_usable_on_a_phone(page: Page, server_url: str):
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(server_url + "/")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    expect(page.get_by_role("link", name="Sign up").first).to_be_visible()
