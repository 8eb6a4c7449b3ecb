"""Detection per type and language: positives and near-miss negatives (jiyi.privacy.detect)."""

from __future__ import annotations

import pytest

from jiyi.privacy.detect import find_values, id_number_shape, luhn_ok, valid_id_number
from jiyi.privacy.mask import level_of, mask_values, placeholder_level, unmask
from jiyi.records import Visibility

SECRET = Visibility.SECRET


def kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind, f.value) for f in find_values(text)]


@pytest.mark.parametrize(("text", "kind", "value"), [
    # passwords, PINs, WiFi, 支付密码 / 银行卡密码, in both languages and several phrasings
    ("记住我的支付密码是 884422", "password", "884422"),
    ("密码是884422", "password", "884422"),
    ("银行卡密码：135790", "password", "135790"),
    ("家里WiFi密码是abcd1234，别告诉别人", "password", "abcd1234"),
    ("wifi是 abcd1234", "password", "abcd1234"),
    ("pwd: hunter2", "password", "hunter2"),
    ("my PIN is 4321", "password", "4321"),
    ("My bank password is Tr0ub4dor&3.", "password", "Tr0ub4dor&3"),
    ("I changed my password to s3cret!pass", "password", "s3cret!pass"),
    ("changed pw to Mx!4otter-Fern9 keep it for me", "password", "Mx!4otter-Fern9"),  # "pw", as chat writes it
    # one-time codes
    ("验证码 384912，五分钟内有效", "code", "384912"),
    ("动态码是 551203", "code", "551203"),
    ("your OTP is 928374", "code", "928374"),
    ("the verification code: 0042", "code", "0042"),
    # cards: Luhn, spaced or dashed, with a card word or a card prefix
    ("卡号 6222 0212 3456 7890 128", "bank_card", "6222 0212 3456 7890 128"),
    ("my card is 4111-1111-1111-1111", "bank_card", "4111-1111-1111-1111"),
    ("信用卡 5500005555555559 记一下", "bank_card", "5500005555555559"),
    # API keys and tokens
    ("key: sk-proj-abcdEFGH1234ijklMNOP5678", "api_key", "sk-proj-abcdEFGH1234ijklMNOP5678"),
    ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "api_key", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    ("aws AKIAIOSFODNN7EXAMPLE", "api_key", "AKIAIOSFODNN7EXAMPLE"),
    ("Authorization: Bearer abcDEF123456ghiJKL789", "api_key", "abcDEF123456ghiJKL789"),
    ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "api_key",
     "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N"),
    ("我的密钥是 9f86d081884c7d659a2feaa0c55ad015", "api_key", "9f86d081884c7d659a2feaa0c55ad015"),
    # ID numbers (GB 11643 check digit)
    ("我的身份证号是11010519491231002X", "id_number", "11010519491231002X"),
    # phones: CN mobile, +86, international, US
    ("我的手机号是13812345678", "phone", "13812345678"),
    ("打 138 1234 5678 找我", "phone", "138 1234 5678"),
    ("call me at +86 138-1234-5678", "phone", "+86 138-1234-5678"),
    ("reach me at +44 20 7946 0958", "phone", "+44 20 7946 0958"),
    ("my number is (415) 555-0132", "phone", "(415) 555-0132"),
    ("座机 021-62345678", "phone", "021-62345678"),
    # email
    ("我的邮箱是 zhang.san@example.com", "email", "zhang.san@example.com"),
    # street addresses
    ("我家住在上海市浦东新区张江路123号5栋2单元301室", "address", "上海市浦东新区张江路123号5栋2单元301室"),
    ("快递寄到幸福小区3栋2单元501室", "address", "幸福小区3栋2单元501室"),
    ("I live at 42 Wallaby Way, Sydney", "address", "42 Wallaby Way"),
    ("ship it to 221B Baker Street, apt 4", "address", "221B Baker Street, apt 4"),
    # a secret a clause after its keyword, a code in two halves, a service key with its environment
    ("my bank keeps texting OTPs, here's the latest one 604219 ignore", "code", "604219"),
    ("the 2FA code just came in: 731 884, lol", "code", "731 884"),
    ("our staging API key, keep it safe for me: pk_live_Hq72LmZx0PtR4vNc", "api_key", "pk_live_Hq72LmZx0PtR4vNc"),
    ("deploy token, copy this somewhere: a8Jx02PqLm55ZsTr9wQe", "api_key", "a8Jx02PqLm55ZsTr9wQe"),
    # any kind of key by its word, then a long random-looking token: a stream key, a licence key
    ("obs keeps asking for my stream key again: live_58213307_Qx9vTfLmZ2", "api_key", "live_58213307_Qx9vTfLmZ2"),
    ("直播的推流码存一下 rtmp_8823aXb91kLmQ2zz", "api_key", "rtmp_8823aXb91kLmQ2zz"),
    # a password misspelt, a security answer said as what was filled in, a recovery code in groups of five
    ("my music app pasword is Vinyl&Static88 btw", "password", "Vinyl&Static88"),
    ("游戏密保问题 “你最喜欢的老师” 我填的是 王建国", "password", "王建国"),
    ("for the bank's security question (first pet) I put Biscuit", "password", "Biscuit"),
    ("account recovery code -> 7J3RJ-3SN47-F3NZ9-4SRR2-S3N58", "code", "7J3RJ-3SN47-F3NZ9-4SRR2-S3N58"),
    ("console backup codes: 8062-0729  6602-0881", "code", "8062-0729  6602-0881"),  # dashed digits, a list
    ("backup code 8062-0729", "code", "8062-0729"),
])
def test_detects(text: str, kind: str, value: str) -> None:
    assert (kind, value) in kinds(text)


@pytest.mark.parametrize("text", [
    "订单号 1234567890123456",  # 16 digits, not Luhn
    "订单号 4111111111111111 已发货",  # Luhn-valid, but an order number
    "990105194912310021 是一串数字",  # a wrong check digit, no word that names it, and 99 is no province
    "zip code 94110",
    "今天是2024-03-05，明天2024/03/06",  # dates
    "这件外套 1299.00 元，打完折 899",  # prices
    "我的密码太简单了",  # a password phrase without a password
    "the password is correct",
    "I walked 3 miles down the road",
    "my login is slow today / weird", "the account is in HK / SG",  # no name and password around the slash
    "我住在杭州，在西湖区上班",  # a city is not a street address
    "我们约在 3 点，人数 12 人",
    "sk-",
])
def test_near_misses_are_left_alone(text: str) -> None:
    assert kinds(text) == []


def test_checksums() -> None:
    assert valid_id_number("11010519491231002X") and not valid_id_number("110105194912310021")
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")


def test_a_card_is_not_a_phone_and_an_id_is_not_a_card() -> None:
    assert [k for k, _ in kinds("卡号 6222 0212 3456 7890 128")] == ["bank_card"]
    assert [k for k, _ in kinds("身份证 11010519491231002X")] == ["id_number"]


def test_levels() -> None:
    assert level_of("我的手机号是13812345678") is Visibility.SENSITIVE
    assert level_of("my PIN is 4321, phone 13812345678") is Visibility.SECRET
    assert level_of("我喜欢吃川菜") is Visibility.NORMAL
    assert placeholder_level("用户的支付密码是[已隐藏:支付密码]") is Visibility.SECRET
    assert placeholder_level("User's phone number is [private: phone number]") is Visibility.SENSITIVE


def test_masking_keeps_the_words_and_unmask_restores() -> None:
    text = "记住我的支付密码是 884422，手机 13812345678"
    masked, pairs = mask_values(text, find_values(text))
    assert masked == "记住我的支付密码是 [已隐藏:支付密码]，手机 [已隐藏:手机号]"
    assert unmask(masked, pairs) == text
    en = "my PIN is 4321"
    masked_en, _ = mask_values(en, find_values(en))
    assert masked_en == "my PIN is [secret: PIN]"


def test_placeholders_are_not_found_again() -> None:
    assert find_values("用户的支付密码是[已隐藏:支付密码]") == []
    assert find_values("User's password is [secret: password]") == []


@pytest.mark.parametrize(("text", "kind", "value", "secret"), [
    ("身份证 110105194912310021", "id_number", "110105194912310021", False),  # a wrong check digit, after its word
    ("my SSN is 078-05-1121", "id_number", "078-05-1121", False),
    ("social security number 219 09 9999", "id_number", "219 09 9999", False),
    ("护照号码是E87654321", "id_number", "E87654321", False),
    ("passport no. K7654321", "id_number", "K7654321", False),
    ("银行卡号 6222 0300 1122 3344 556", "bank_card", "6222 0300 1122 3344 556", True),  # fails Luhn
    ("card number 4000 1234 5678 9011", "bank_card", "4000 1234 5678 9011", True),
    ("card is 4929 1830 5527 6614 exp 09/29", "bank_card", "4929 1830 5527 6614", True),  # fails Luhn, no "number"
    ("cvv 318", "code", "318", True),
    ("卡背面的安全码是 907", "code", "907", True),
    ("验证码 6612", "code", "6612", True),
    ("the code is 55821", "code", "55821", True),
    ("my pin 9931", "password", "9931", True),
])
def test_a_number_after_its_word_is_what_the_word_says(text: str, kind: str, value: str, secret: bool) -> None:
    (found,) = find_values(text)
    assert (found.kind, found.value) == (kind, value)
    assert (found.level is SECRET) is secret


@pytest.mark.parametrize("text", ["my library card is 12345678 lol", "we played a card game until 2024"])
def test_a_card_word_beside_a_short_number_is_no_card(text: str) -> None:
    assert find_values(text) == []


def test_an_ssn_is_never_a_phone_number() -> None:
    assert [f.kind for f in find_values("call me maybe, my social security number is 219-09-9999")] == ["id_number"]


# ---------------------------------------------------------------- a value a few words after its keyword

@pytest.mark.parametrize(("text", "kind", "value", "label"), [
    ("我的支付密码老是记不住，写这儿吧 771203", "password", "771203", "支付密码"),
    ("家里wifi密码我贴冰箱上了：zx81mq90", "password", "zx81mq90", "WiFi密码"),
    ("门锁密码我换了，新的 739051", "password", "739051", "门锁密码"),
    ("路由器管理密码，别外传啊：Adm1n#2024", "password", "Adm1n#2024", "密码"),
    ("wifi password, in case you need it: sunny2023go", "password", "sunny2023go", "WiFi password"),
    ("my atm pin, so i don't lose it again, 5530", "password", "5530", "PIN"),
    ("The door PIN for the office is, I think, 2846.", "password", "2846", "PIN"),
    ("验证码刚收到 wow 739204", "code", "739204", "验证码"),
    ("the verification code they texted me just now: 55A8K2", "code", "55A8K2", "one-time code"),
    ("steam guard keeps asking me for codes, latest one is 7KQ2X, whatever", "code", "7KQ2X", "one-time code"),
    ("银行卡我记一下 1234567812345678", "bank_card", "1234567812345678", "银行卡号"),  # no prefix, fails Luhn
    ("身份证我发你了，440305198802300418", "id_number", "440305198802300418", "身份证号"),  # 2月30日: no ID shape
    ("passport, in my drawer, E12345678", "id_number", "E12345678", "passport number"),
    ("my ssn, for the form, 078-05-1120", "id_number", "078-05-1120", "SSN"),
    ("can u hold onto my passport no for the visa form later, it's E7364019P", "id_number", "E7364019P",
     "passport number"),  # a check letter after the digits
    ("passport came back. 583920174, renewing at the embassy", "id_number", "583920174", "passport number"),
    ("passport renewal done too, new number PA7734201, dont let me lose it", "id_number", "PA7734201",
     "passport number"),  # "number" before a lettered value names it
    ("护照办下来了。号码E58214937 年底想去泰国", "id_number", "E58214937", "护照号"),  # opens the next sentence
    ("ok and my passport's almost expired, no. 471920385, renew it before june", "id_number", "471920385",
     "passport number"),  # "no." for number, digits alone
    ("filling the visa thing, passport number box says no dashes ok? mine's KX5820417", "id_number", "KX5820417",
     "passport number"),  # a document's own shape a clause further, after "mine's"
    ("银行发了个 TAC 码 402913 让我别外传", "code", "402913", "验证码"),
    ("the game keeps emailing me codes, 662019, no idea why", "code", "662019", "one-time code"),
    ("saving my 2FA backup code here: 7QX2-M4PD-99KT-ZL3B", "code", "7QX2-M4PD-99KT-ZL3B", "one-time code"),
    ("区役所要我的マイナンバー 3301 2847 5561 先放你这", "id_number", "3301 2847 5561", "My Number"),
    ("Finanzamt letter came, Steuer-ID 12 345 678 901 for next year", "id_number", "12 345 678 901", "tax ID"),
    ("numéro de sécu 发你备份一下 2 02 05 99 216 034 57", "id_number", "2 02 05 99 216 034 57", "numéro de sécu"),
    ("我手机号是一三八零零一三八零零零", "phone", "一三八零零一三八零零零", "手机号"),  # read out in numerals
    ("my library login is mchen22 / Tulip$9088 if I forget", "password", "Tulip$9088", "password"),
])
def test_a_value_a_few_words_after_its_keyword(text: str, kind: str, value: str, label: str) -> None:
    (found,) = find_values(text)
    assert (found.kind, found.value, found.label) == (kind, value, label)


@pytest.mark.parametrize(("text", "value", "label"), [
    ("btw the bank texted me 771204 as a verification code, what's that for??", "771204", "one-time code"),
    ("刚收到558201是验证码 别告诉别人", "558201", "验证码"),
])
def test_a_one_time_code_named_after_it(text: str, value: str, label: str) -> None:
    (found,) = find_values(text)
    assert (found.kind, found.value, found.label) == ("code", value, label)


@pytest.mark.parametrize("text", ["2025 verification code rules changed", "my zip code is 10001", "promo codes 2024 are out",
                                  "I write codes 8 hours a day since 2019",
                                  "room 4021, the one with the verification code printer"])
def test_a_number_beside_a_code_word_that_is_no_code(text: str) -> None:
    assert not [f for f in find_values(text) if f.kind == "code"]


@pytest.mark.parametrize("text", [
    "密码锁买的时候 2999元",  # a price: the currency unit after it
    "wifi密码改了以后网速到了 300Mbps",  # a quantity with its unit stuck on
    "I reset my password and then walked 4000 steps",  # a quantity with its unit after it
    "密码箱打折，现在 ￥1299",  # a price: the currency sign in front
    "my password book was like $45.99 lol",  # a price
    "wifi密码上次改还是 2021 的事",  # a year
    "支付密码锁了，明天 10:30 去柜台",  # a time
    "wifi密码过期了，下次更新 2025-07-01",  # a date
    "密码输错 3 次会锁卡，客服工号 8823",  # another number comes first
    "支付密码又忘了。车牌是 A8K926",  # the sentence ended
    "passport expired. 2026 is my year to travel",  # the next sentence opens with a year, not a number of it
    "I forgot my password again! Anyway, B1234 is our table",  # the sentence ended
    "wifi密码的事我回头问房东，他说楼下那家奶茶店 DK2024 款很好喝",  # too far
    "passport photos were a nightmare, the booth ate my coins and then the guy said come back at B12",  # a place
    "wifi密码在路由器背面，型号是 TL-WR841N",  # the gap names another number
    "密码管理器我用的是 1Password",  # … or an app
    "密码学作业里的例子 ab12cd34 要改",  # 密码学 is cryptography
    "I changed my password at 1530 yesterday",  # a time: "at" in front of it
    "we should pin this thread, 2847 replies already",  # "pin" without my/the/bank…: a verb
])
def test_a_number_a_few_words_after_a_keyword_that_is_no_secret(text: str) -> None:
    assert kinds(text) == []


def test_a_number_inside_a_letter_token_is_no_phone_number() -> None:
    assert kinds("护照办下来了 号码E58214937") == [("id_number", "E58214937")]


def test_a_phone_number_after_a_password_word_stays_a_phone_number() -> None:
    assert kinds("密码忘了，打 13812345678 找我") == [("phone", "13812345678")]


def test_a_value_after_a_gap_is_masked_as_its_keyword_says() -> None:
    text = "我的支付密码老是记不住，写这儿吧 771203"
    masked, _ = mask_values(text, find_values(text))
    assert masked == "我的支付密码老是记不住，写这儿吧 [已隐藏:支付密码]"
    assert level_of("my atm pin, so i don't lose it again, 5530") is SECRET


# ---------------------------------------------------------------- numbers by their shape, checksum mistyped

def test_id_number_shape() -> None:
    assert id_number_shape("330106200303152847") and not valid_id_number("330106200303152847")
    assert not id_number_shape("990105198811230418")  # 99 is no province
    assert not id_number_shape("440305198802300418")  # 30 February
    assert not id_number_shape("440305203511230418")  # born in the future


@pytest.mark.parametrize("text", [
    "帮我记住 330106200303152847",
    "110105194912310021 是一串数字",  # its check digit is wrong: mistyped, still an ID number
    "remember this one for me: 51010419760702123X",
])
def test_an_id_shaped_number_is_an_id_number_whatever_its_check_digit(text: str) -> None:
    (found,) = find_values(text)
    assert found.kind == "id_number" and found.value in text and len(found.value) == 18


def test_an_id_shaped_number_that_passes_luhn_beside_a_card_word_is_a_card() -> None:
    assert kinds("我那张卡，你记一下 440305198811230418") == [("bank_card", "440305198811230418")]
    assert kinds("这串你记一下 440305198811230418") == [("id_number", "440305198811230418")]


@pytest.mark.parametrize("text", [
    "990105198811230418 是一串数字",  # no province
    "这串 440305198802300418 你看看",  # no date
    "这串 440305203511230418 你看看",  # a date to come
    "订单号 440305198811230418 还没发货",  # an order number
])
def test_an_id_shape_needs_a_province_and_a_birth_date(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize(("text", "value"), [
    ("记一下：6217 0000 1111 2222", "6217 0000 1111 2222"),  # fails Luhn, printed like a card
    ("我那张卡是 3141 5926 5358 9793 吧", "3141 5926 5358 9793"),  # no issuer prefix, but four groups of four
    ("请记住 6228 4800 1234 5678 912", "6228 4800 1234 5678 912"),  # 19 digits
    ("save this for me 4532881299041235", "4532881299041235"),  # Visa's prefix, fails Luhn
    ("帮我存一下 9558801234567890123", "9558801234567890123"),  # ICBC's old prefix
])
def test_a_card_shaped_number_is_a_card_whatever_its_checksum(text: str, value: str) -> None:
    assert kinds(text) == [("bank_card", value)]


@pytest.mark.parametrize("text", [
    "帮我记住 1234567812345678",  # bare digits, no issuer prefix, fails Luhn
    "快递单号 4000 1234 5678 9010 还没到",  # tracking
    "6222021234567890 这个订单怎么还没发货",  # an order, named after the number
    "Shipment 5123456789012345 arrived today",
    "we ran 2019 2020 2021 2022 together",  # years
])
def test_a_mistyped_card_needs_its_shape_and_no_order_word(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize(("text", "value"), [
    ("the bank form wants my NRIC, i wrote T0291746Z", "T0291746Z"),  # Singapore, a few words on
    ("mykad 851230-08-6621 kalau perlu", "851230-08-6621"),
    ("my aadhaar number is 4821 0937 5516", "4821 0937 5516"),
    ("pan card ABCPD4417K for the tax filing", "ABCPD4417K"),
    ("tax file number 318 204 667, keep it safe", "318 204 667"),
    ("sin number: 527-183-904", "527-183-904"),
    ("my national insurance number is JX 48 21 73 B", "JX 48 21 73 B"),
    ("驾驶证号 320102198811025417 给你了", "320102198811025417"),
    ("港澳通行证号码 C48219376", "C48219376"),
    ("我的身分證字號是E224819306 幫我填表", "E224819306"),  # Taiwan, typed in traditional characters
    ("身分證 N128830417 先記著", "N128830417"),
    ("my national id number is R248193061", "R248193061"),
])
def test_identity_numbers_of_other_countries_are_found_by_their_name(text: str, value: str) -> None:
    found = [(f.kind, text[f.start:f.end]) for f in find_values(text)]
    assert ("id_number", value) in found, found
    assert level_of(text) is not Visibility.NORMAL


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("提款卡密碼 5517 別跟別人說", "password", "5517"),
    ("驗證碼是 660418", "code", "660418"),
    ("信用卡號碼 4929 1830 2291 7740", "bank_card", "4929 1830 2291 7740"),
])
def test_a_secret_named_in_traditional_characters_is_found(text: str, kind: str, value: str) -> None:
    assert (kind, value) in [(f.kind, text[f.start:f.end]) for f in find_values(text)]


@pytest.mark.parametrize("text", ["pan fried dumplings for 12345 people? no way", "i sinned 3 times this week lol",
                                  "the fin 3 engine part number is 4471", "税号91310115MA1K4B7X2Q，开电子发票",
                                  "我身分證掉了 要去補辦 房間號A123456789"])
def test_words_that_only_look_like_an_id_name_find_nothing(text: str) -> None:
    assert [f for f in find_values(text) if f.kind == "id_number"] == []


@pytest.mark.parametrize(("text", "value"), [
    ("here's the token for the server bot so you can test stuff: MTE5ODc2NTQzMjEwOTg3NjU0.GhX2kP.q8Zr3vLmN0pWcYtBf7sJdKe1uAo",
     "MTE5ODc2NTQzMjEwOTg3NjU0.GhX2kP.q8Zr3vLmN0pWcYtBf7sJdKe1uAo"),
    ("先存一下 a8Fk2LmQ9zXc7VbN3pRt6YwE 明天要用", "a8Fk2LmQ9zXc7VbN3pRt6YwE"),
])
def test_a_random_looking_token_with_no_keyword_is_a_secret(text: str, value: str) -> None:
    assert ("api_key", value) in kinds(text)


@pytest.mark.parametrize("text", [
    "SuperCaliFragilistic2024Edition is the best skin",  # a CamelCase name with a year
    "commit 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a fixed it",  # hex: one case
    "request id 550e8400-e29b-41d4-a716-446655440000",
    "https://encrypted-tbn0.gstatic.com/images?q=tbn:ANd9GcQiyDMnkQOmMQNKQfQDDRQlTRpNME7oy0xNlcHjLYB8n_ZwvnWe8nY",
    "see src/jiyi/privacy/DetectValues2024/Module9Test.py",
])
def test_long_strings_that_are_no_token_find_nothing(text: str) -> None:
    assert [f for f in find_values(text) if f.kind == "api_key"] == []


@pytest.mark.parametrize(("text", "value"), [
    # a lock's combination, named by the lock: three digits, a dial's numbers, a keypad's hash
    ("酒店房间的保险箱我设成了 6061 退房前记得拿东西", "6061"),
    ("拉杆箱那个锁 我设的 528", "528"),
    ("bike lock combo is 19-04-33 if you borrow it", "19-04-33"),
    ("公寓门禁改了 4471# 进门按", "4471#"),
    # typed digit by digit, and a password said with "pw" or a device's login
    ("手机锁屏密码 2 7 7 1 9 0 别偷看", "2 7 7 1 9 0"),
    ("new pw for the work laptop: Kestrel#88", "Kestrel#88"),
    ("uni vpn login is Marmot-2291", "Marmot-2291"),
    # a parcel shelf's code, a locker's two halves, and backup codes in a row
    ("丰巢取件码 5-1-3308 晚点去拿", "5-1-3308"),
    ("parcel locker pickup code 5527 0193", "5527 0193"),
    ("备用码 k2m9-x4pq 7hn3-r8tw 先存你这", "k2m9-x4pq 7hn3-r8tw"),
    # a code whose length is said first, a card's back, part of a card, a bank account
    ("验证码是6位的 302918 快帮我输", "302918"),
    ("卡背面那三位是 417", "417"),
    ("工行卡号开头是 6222 0210 后面忘了", "6222 0210"),
    ("邮局帐号 0003321-4410982 退税用", "0003321-4410982"),
    ("房东收租的帐号我存这 建行 621700123398", "621700123398"),
    ("IBAN DE44 5001 0517 5407 3249 31 for invoices", "DE44 5001 0517 5407 3249 31"),
    # a network's password said with the network alone, and a gap that asks to remember it
    ("家里wifi换了 现在是 panda_2288 记一下", "panda_2288"),
    ("网银密码帮我记住 Qw7788xx", "Qw7788xx"),
    # a Telegram bot's token
    ("bot token 7012345678:AAH9xYz1Lk2Mn3Op4Qr5St6Uv7Wx8Yz9AbC", "7012345678:AAH9xYz1Lk2Mn3Op4Qr5St6Uv7Wx8Yz9AbC"),
    # a key's half after its vendor's prefix; an account's number after "account" alone, its branch's six digits
    ("Notion 的 integration token 存一下 前半截 ntn_Q8m2Lx7", "ntn_Q8m2Lx7"),
    ("the gym wanted a direct debit: BSB 062-914, account 1093 5528", "062-914"),
    ("the gym wanted a direct debit: BSB 062-914, account 1093 5528", "1093 5528"),
    ("UK transfer: sort code 20-45-77", "20-45-77"),
    # a password said in Chinese numerals
    ("微信支付密码 三九二七一五 帮我记着", "三九二七一五"),
    ("银行卡密码我设了个好记的 幺三五七二四", "幺三五七二四"),
    # a card's number read out in Chinese numerals (a voice message), a manager's override code (round 33)
    ("[语音转文字] 工资卡是晋商银行的 卡号是 六二一七 八五零零 三三一二 四七六九 你给记上", "六二一七 八五零零 三三一二 四七六九"),
    ("POS manager override is 7 7 3 0 if I'm not around", "7 7 3 0"),
])
def test_secrets_named_by_what_they_open(text: str, value: str) -> None:
    assert value in [f.value for f in find_values(text) if f.level is SECRET]


@pytest.mark.parametrize(("text", "value"), [
    ("我冷钱包的助记词 存一下：山 河 云 雪 竹 灯 鱼 船 桥 月 风 石", "山 河 云 雪 竹 灯 鱼 船 桥 月 风 石"),
    ("recovery phrase for the hardware wallet: apple river stone cloud tiger paper lemon frost orbit maple dune fog",
     "apple river stone cloud tiger paper lemon frost orbit maple dune fog"),
    ("密保问题 我最喜欢的老师 答案是 周丽萍 别外传", "周丽萍"),
    ("security question: name of first pet -> Biscuit", "Biscuit"),
])
def test_secrets_made_of_words(text: str, value: str) -> None:
    assert value in [f.value for f in find_values(text) if f.level is SECRET]


@pytest.mark.parametrize("text", [
    "WiFi名字叫 Xiaomi_5G_88A1 密码问房东",  # a network's name
    "密保问题忘了怎么办",  # no answer given
    "记一下 下周二 3 点开会 帮我记住",  # a time after 记住
    "我的快递在 3 号柜",  # no code word
    "今天背了 12 个单词 seed 那个词老记混",  # words, no phrase
    "bus pass is 2 dollars now lol",  # a bus pass
    "我的QQ账号是 12345678",  # an account's name, not a bank's number
    "密码是六位数 我老记不住",  # how long it is, in a numeral
    "密码输错三次就锁了",
    "my account was opened in 2019",
])
def test_words_near_a_secret_word_that_are_no_secret(text: str) -> None:
    assert [f.value for f in find_values(text) if f.level is SECRET] == []


@pytest.mark.parametrize(("text", "value"), [
    ("报税要用的SIN 先存这 527 314 890", "527 314 890"),
    ("我的IC是 900315-10-5528 办事用", "900315-10-5528"),
    ("回乡证号码 H10293847 过关用", "H10293847"),
    ("站长要我身份证号 登记意外险 110105 19900307 2214 下回填表用", "110105 19900307 2214"),  # typed in groups
])
def test_identity_numbers_said_with_their_everyday_word(text: str, value: str) -> None:
    assert ("id_number", value) in kinds(text)


@pytest.mark.parametrize("text", ["一二三四五六七八九十 数数", "三三两两的人", "一五一十地说了", "override the default 2 times",
                                  "sécu 才 20 欧", "十一月十五 四五个人去"])
def test_numerals_and_words_that_name_no_value(text: str) -> None:
    assert find_values(text) == []
