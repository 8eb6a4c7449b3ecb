"""English fact patterns about the user: name, age, home, work, diet, likes, habits, reply style.

Each function takes the clause text and returns drafts in canonical third person
("User lives in Boston"). Contacts and health are in :mod:`.sensitive`; people and
pets in :mod:`.people`.
"""

from __future__ import annotations

import re

from jiyi.extractors.rules.drafts import Draft, fact, templated
from jiyi.records import Kind
from jiyi.text.person import third_person
from jiyi.text.places import place_at_start, place_now
from jiyi.text.relations import EN_NAME_DENY
from jiyi.text.wordlists import EN_JOB_TITLES

_CAP = r"[A-Z][\w'.&-]*(?:\s+(?:(?:of|de|la|upon)\s+)?[A-Z][\w'.&-]*)*(?:,\s*[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)?"
_LOWER_PHRASE = (r"(?:a|an|the|this|that)\s+[a-z][\w\s'-]{2,30}?(?=[.,;!?]|$|\s+(?:and|but|with|for|since|now|because|next|this|"
                 r"in|on|from|tomorrow|today|soon)\b)")
#: a lowercase run ("denver last month") that is a place only if :mod:`jiyi.text.places` knows it
_LOWER_WORDS = r"[a-z][\w.'-]*(?:\s+[a-z][\w.'-]*){0,3}"
_PLACE_EN = rf"(?P<v>{_CAP}|{_LOWER_PHRASE}|{_LOWER_WORDS})"
_EN_ADV = r"(?:(?:really|absolutely|just|also|totally|still|kind\s+of|sort\s+of|actually|truly|do|definitely)\s+)*"
_EN_NAME = (
    re.compile(r"(?i:\bmy\s+name(?:'s|\s+is)\s+)(?P<v>[A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})"),
    re.compile(r"(?i:(?<!don't\s)(?<!not\s)\b(?:call\s+me|i\s+go\s+by|i'm\s+called|i\s+am\s+called)\s+)"
               r"[\"'“‘]?(?P<v>[A-Za-z][\w-]*(?:'[A-Za-z]+)?)"),  # call me "Jojo"
    re.compile(r"(?i:^(?:hi|hello|hey)(?:\s+there)?[,!.]?\s+(?:i'm|i\s+am|this\s+is)\s+)(?P<v>[A-Z][a-z]+)\b"),
    # "I'm Maya" / "I am June, nice to meet you": a capitalised word alone, not a nationality or a feeling
    re.compile(r"(?i:^(?:(?:hi|hello|hey|oh|well|yes|yeah)[,!.]?\s+)*(?:i['\u2019]m|i\s+am)\s+)"
               r"(?P<v>[A-Z][a-z]{1,15})(?<!ese)(?<!ian)(?<!ish)(?<!can)(?<!ean)(?=\s*(?:[,.!;]|$|\band\b))"),
)
_EN_OTHERS_CALL_ME = re.compile(r"(?i:\b(?:my\s+[\w-]+|our\s+[\w-]+|they|he|she|people|friends|family|folks)\s+"
                                r"(?:all\s+|usually\s+|always\s+|sometimes\s+|still\s+|often\s+|just\s+)?"
                                r"(?:call|calls|called)\s+me\s+)(?P<v>[A-Z][\w'-]*)")
_EN_AGE = (
    re.compile(r"(?i:\b(?:i'm|i\s+am)\s+)(?P<v>\d{1,3})(?i:\s+years?\s+old|\s*(?:yo|y/o|yrs?\s+old))?"
               r"(?=\s*(?:$|[.,!;]|and\b|now\b))"),
    re.compile(r"(?i:\bi\s+(?:just\s+)?turned\s+)(?P<v>\d{1,3})\b"),
)
_EN_MOVE = re.compile(r"(?i:\b(?:i|we)(?:\s+have|\s+had|'ve|'d)?\s+(?:(?:just|recently|finally|officially|now|already)\s+)?(?:moved|relocated)"
                      r"\s+(?:back\s+)?to|\b(?:i'm|i\s+am|we're|we\s+are)\s+moving\s+to|"
                      # a home found or taken somewhere: "found a little courtyard place in Dali", "rented a flat in Porto"
                      r"(?:^|[.!;]\s*|\b(?:i|we)\s+(?:just\s+|finally\s+)?)(?:found|rented|bought|signed\s+for)\s+(?:a|an|our|my)\s+"
                      r"(?:(?:[\w-]+\s+){0,2}(?:flat|apartment|house|studio|condo)|(?:(?:new|own|little|tiny|small|cute|cozy|cosy|"
                      r"courtyard|rental)\s+){1,2}place)\s+in|"
                      # a new home said where it is: "New flat's in Edgeley", "our new place is in Fitzroy"
                      r"(?:^|[.!;]\s*|\b(?:so|and|right|yeah|well)[,\s]+)(?:(?:our|my|the)\s+)?new\s+(?:flat|house|home|apartment|"
                      r"condo|studio|pad|digs)(?:['\u2019]s|\s+is)\s+(?:now\s+)?in|"
                      r"\b(?:our|my)\s+new\s+place(?:['\u2019]s|\s+is)\s+(?:now\s+)?in)\s+" + _PLACE_EN)
#: a home said before its place: "we live in a flat in Levenshulme" lives in Levenshulme
_A_HOME_IN = (r"(?i:(?:a|an|the|our|my)\s+(?:[\w-]+\s+){0,2}?(?:flat|house|apartment|studio|condo|bungalow|terrace|"
              r"maisonette|place)\s+in\s+(?=[A-Z]))?")
_EN_LIVE = re.compile(r"(?i:\b(?:i|we|(?:^|(?<=[.!;]\s))me\s+and\s+(?-i:[A-Z][\w'-]+|(?i:my|our)\s+\w+))\s+"
                      r"(?:currently\s+|now\s+|still\s+|also\s+)?(?:live|reside|am\s+living|are\s+living)\s+in|\b(?:i'm|we're)\s+"
                      r"(?:living|based)\s+in|\bi\s+am\s+based\s+in)\s+" + _A_HOME_IN + _PLACE_EN)
_EN_HOMETOWN = re.compile(r"(?i:\b(?:i'm|i\s+am|i\s+come)\s+(?:originally\s+)?from|\bi\s+grew\s+up\s+in|"
                          r",\s*(?:but\s+)?originally\s+from)\s+"
                          + _PLACE_EN)
_JOBS_EN = EN_JOB_TITLES
#: a job title said alone, the clause's first words (no article or owner before it: "the nurse at the clinic" is
#: someone else), after a chat lead ("yeah head barista at …")
#: or after a self-introduction ("I'm Hannah, UX researcher at a fintech": the title stands beside the name)
_TITLE_LEAD = (r"(?:^|[.!;]\s*|\b(?:i'm|i\s+am)\s+(?-i:[A-Z][\w'-]+),\s*(?:a\s+|an\s+)?)"
               r"(?:(?:yeah|yep|yes|so|well|currently|now|still)[,\s]+)*")
_TITLE_ALONE = rf"(?:(?!(?:the|my|his|her|a|an|our|their|your|this|that)\b)[\w-]+\s+){{0,2}}(?:{_JOBS_EN})"
_EN_JOB = (
    re.compile(r"(?i:\bi\s+work\s+as\s+(?:an?\s+)?)(?P<v>[\w\s-]{2,40}?)(?=\s+(?i:at|for|in)\b|[.,;!?]|$)"),
    re.compile(rf"(?i:\b(?:i'm|i\s+am|i've\s+been|i\s+have\s+been)\s+(?:now\s+|currently\s+)?(?:an?\s+))"
               rf"(?P<v>(?i:(?:[\w-]+\s+){{0,2}}(?:{_JOBS_EN})))\b"),
    # a title said alone before where, as chat answers what one does ("head barista at a little place called …"),
    # or before "life" ("ICU nurse life, 7pm to 7am": what one's days are as one)
    re.compile(rf"(?i:{_TITLE_LEAD})(?P<v>(?i:{_TITLE_ALONE}))(?=\s+(?i:at|for)\s|\s+(?i:life)\b)"),
    re.compile(r"(?i:\bmy\s+job\s+is\s+(?:an?\s+)?)(?P<v>[\w\s-]{2,40}?)(?=[.,;!?]|$)"),
)
#: "I teach <subject>": the subject, not whom or where (my kids, at home, online)
_EN_TEACH = re.compile(r"(?i)\bi\s+teach\s+(?!(?:my|the|a|an|him|her|them|it|us|myself|kids|children|students|people|"
                       r"at|in|for|to|on|part|full|online|from)\b)(?P<v>[a-z]+)(?=\s+(?:at|to|in|for|on)\b|[.,;!?]|$)")
_LOWER_ORG = (r"(?!(?:home|night|nights|weekends|school|work|it|this|that|the|a|an|my|least|all|once|first|last|times)\b)[a-z][\w&-]{1,20}"
             r"(?=\s+as\b|[.,;!?]|$|\s+(?:now|too|again|currently|since|these\s+days|full[\s-]time|part[\s-]time|"
             r"remotely|last|this|next|in|on|for|and|but|lol|lmao|haha|btw|tho|though|today|yesterday|tomorrow)\b)")
_ORG_EN = rf"(?P<org>{_CAP}|(?:a|an|the|this)\s+(?:[\w-]+\s+){{0,3}}?(?:called|named)\s+{_CAP}|{_LOWER_PHRASE}|{_LOWER_ORG})"
_EN_EMPLOYER = re.compile(r"(?i:\bi\s+(?:currently\s+|now\s+|still\s+|also\s+)?(?:work|am\s+working|'m\s+working)"
                          r"\s+(?:at|for)|\bi\s+(?:just\s+)?(?:got\s+a\s+(?:new\s+)?job\s+at|started\s+"
                          r"(?:a\s+new\s+job\s+)?at)|\b(?:i'm|i\s+am)\s+an?\s+(?:[\w-]+\s+){0,3}(?:at|for)"
                          r"|\bi\s+work\s+as\s+an?\s+(?:[\w-]+\s+){0,3}(?:at|for)"
                          r"|\bi\s+\w+\s+[^.;!?]{0,40}?,\s*(?:and\s+)?(?:now\s+)?work(?:ing)?\s+(?:at|for)"
                          # a new job: "I'm starting at X next month", "starting at X" (subject dropped), "I joined X"
                          r"|(?:\bi(?:'m|\s+am)\s+(?:now\s+)?|(?:^|[.!;]\s*|,\s*(?:and\s+)?|\band\s+)(?:now\s+)?)"
                          r"(?:starting|start)\s+(?:a\s+new\s+job\s+|work\s+|my\s+new\s+job\s+)?at"
                          r"|\bi(?:'ve|\s+have)?\s+(?:just\s+)?joined(?=\s+\S+(?:\s+\S+){0,2}\s+as\s+an?\s)"
                          # a shift worked somewhere: "i'm on nights at the children's hospital", "doing days at X"
                          r"|\b(?:i'm|im|i\s+am|i've\s+been)\s+(?:now\s+|still\s+)?(?:on|doing|working)\s+(?:the\s+)?"
                          r"(?:nights|days|lates|earlies|(?:night|day|early|late|graveyard)\s+shifts?|shifts)\s+(?:now\s+)?at"
                          rf"|{_TITLE_LEAD}{_TITLE_ALONE}\s+(?:at|for))"
                          r"\s+" + _ORG_EN)
#: where the work of a verb is done, as an organisation: a name, "a/the … <workplace>", "<name> <firm word>"
_WORKPLACE_EN = (r"(?:company|firm|startup|agency|shop|store|bakery|caf[eé]|restaurant|hotel|hospital|clinic|school|"
                 r"university|college|warehouse|factory|plant|bank|studio|lab|office|council|charity|supermarket|garage|"
                 r"salon|pharmacy|library|museum|newspaper|magazine|call\s+cent(?:re|er)|nursery|daycare|brewery|"
                 r"roastery|mine|depot|airline|airport|kitchen)")
#: where one is now, a workplace: "nah, I'm at a bank now, way better pay" (not "I'm at the bank", a visit)
_EN_AT_WORKPLACE_NOW = re.compile(rf"(?i:\b(?:i'?m|i\s+am)\s+(?:now\s+)?at\s+)(?P<org>(?i:(?:a|an)\s+(?:[\w-]+\s+){{0,2}}?"
                                  rf"{_WORKPLACE_EN}))(?=\s+now\b)")
#: work told by what one does there: "i do shift scheduling at karrawong minerals", "I write backend code for a fintech
#: startup" (a leisure object is none: "I do yoga at the gym")
_EN_WORK_DONE_AT = re.compile(
    r"(?i:\bi\s+(?:still\s+|now\s+|currently\s+|mostly\s+)?(?:do|manage|run|handle|write|build|design|teach|coach|"
    r"schedule|coordinate|lead|fix|repair|sell|drive|deliver|code|program|support|edit|answer)\s+"
    r"(?!(?:yoga|pilates|homework|laundry|shopping|groceries|my|some|a\s+bit|stuff|things|it|that|this)\b)"
    r"(?:[\w-]+\s+){1,4}?(?:at|for)\s+)"
    rf"(?P<org>{_CAP}|(?i:(?:a|an|the)\s+(?:[\w-]+\s+){{0,3}}?{_WORKPLACE_EN}\b|"
    r"[a-z][\w-]+\s+(?:minerals|logistics|holdings|group|ltd|inc|corp|labs|systems|solutions|media|capital|partners|"
    r"consulting|industries|foods|motors|energy|mining|health|bank)\b))")

_EN_VEG = re.compile(r"(?i)\b(?:i'm|i\s+am|i've\s+been|we're|i(?=\s+(?:lactose|vegetarian|vegan))|i\s+(?:only\s+)?eat"
                     r"(?=\s+(?:only\s+)?(?:halal|kosher)\b))\s+(?:a\s+)?(?:strict\s+|full\s+|now\s+|only\s+)?"
                     r"(?P<v>vegetarian|vegan|pescatarian|pescetarian|lactose\s+intolerant|gluten[\s-]free|halal"
                     r"|kosher|keto|veggie|veggo)\b")
#: chat's short words for a diet, as the profile says it
_DIET_WORD = {"veggie": "vegetarian", "veggo": "vegetarian"}
_EN_NO_EAT = re.compile(r"(?i)\bi\s+(?P<neg>don't|do\s+not|can't|cannot|never|won't)\s+(?P<verb>eat|drink|touch)\s+"
                        r"(?P<v>[\w\s-]{2,30}?)(?=[.,;!?]|$|\s+(?:and|but|because|anymore|since|at\s+all)\b)")
_EN_QUIT = re.compile(r"(?i)\bi\s+(?:just\s+|finally\s+|recently\s+|have\s+|'ve\s+|had\s+)?(?:quit|gave\s+up|"
                      r"given\s+up|stopped|am\s+quitting|'m\s+quitting|no\s+longer)\s+"
                      r"(?P<v>(?!my\s+job\b|the\s+job\b|work\b|on\b|by\b|at\b|to\b|for\b)[a-z][\w\s-]{1,30}?)"
                      r"(?=[.,;!?]|$|\s+(?:and|but|because|since|last|a\s+|two|three|for|after|when|ago|this|cold)\b)")
_EN_ANYMORE = re.compile(r"(?i)\bi\s+(?:don't|do\s+not|no\s+longer)\s+(?P<verb>drink|eat|play|smoke|watch|do|go|"
                         r"like|love|enjoy)\s+(?P<v>[\w\s-]{2,30}?)\s+(?:any\s*more|these\s+days)\b")
_EN_SWITCH_FROM = re.compile(r"(?i)\bi\s+(?:just\s+|finally\s+|recently\s+|have\s+|'ve\s+)?(?:switched|changed|went|moved)\s+"
                             r"from\s+(?P<v>[a-z][\w\s-]{1,25}?)\s+to\s+(?P<w>[a-z][\w\s-]{1,25}?)(?=[.,;!?]|$|\s+(?:and|but|because|since|my)\b)")
#: what people quit that is a habit, not an employer ("I quit google" is a job)
HABIT_OBJECTS_EN = re.compile(r"(?i)^(?:smoking|drinking|coffee|caffeine|alcohol|sugar|meat|soda|vaping|junk\s+food|sweets|"
                            r"gluten|dairy|carbs|booze|cigarettes?|weed|gaming|video\s+games|social\s+media|tiktok|"
                            r"instagram|twitter|facebook|netflix|(?:playing|eating|drinking|doing|going|watching|running|"
                            r"biting|using|taking)\b.*|the\s+gym|gym|running|yoga|tea|wine|beer|chocolate|fast\s+food|"
                            r"energy\s+drinks?|milk|bread|rice|[a-z]+ing\b.*|(?:play|eat|drink|do|go|watch|use|take|"
                            r"smoke)\b.*|tennis|football|soccer|basketball|baseball|golf|yoga|pilates|piano|guitar|"
                            r"violin|chess|poker|crossfit|climbing|bouldering|swimming|cycling|boxing|karate|dance|"
                            r"ballet|volleyball|hockey|rugby|cricket|badminton|the\s+\w+)$")
_GERUND_LEAD = re.compile(r"(?i)^(?:drinking|eating|smoking|playing|watching|doing|going|reading|listening\s+to|"
                          r"drink|eat|smoke|play|watch|do|go\s+to|go|to)\s+(?=\w)")


_EN_LAPSED = re.compile(r"(?i)\bi\s+(?:haven't|have\s+not)\s+(?P<verb>had|drunk|eaten|smoked|touched|played)\s+"
                        r"(?:any\s+)?(?P<v>[a-z][\w\s-]{1,30}?)\s+(?:in|for)\s+(?P<for>(?:a|over\s+a|\w+)\s+"
                        r"(?:weeks?|months?|years?|while)|ages)\b")


def pref_key_en(obj: str) -> str:
    """The ``pref/…`` key of an English object: "playing tennis" and "tennis" are one slot."""
    return re.sub(r"(?i)^(?:the|a|an|my)\s+", "", _GERUND_LEAD.sub("", obj.strip())).lower()
_EN_LIKE = (
    re.compile(rf"(?i)\bi\s+{_EN_ADV}(?P<verb>love|like|enjoy|adore|hate|dislike|prefer|can't\s+stand|cannot\s+stand|"
               r"(?:don't|do\s+not)\s+(?:really\s+|particularly\s+|much\s+|actually\s+)?(?:like|enjoy|care\s+for))"
               r"\s+(?P<v>[^.;!?]{2,60})"),
    re.compile(rf"(?i)\b(?:i'm|i\s+am)\s+{_EN_ADV}(?P<verb>into|obsessed\s+with|a\s+(?:big\s+|huge\s+)?fan\s+of|"
               r"passionate\s+about|crazy\s+about)\s+(?P<v>[^.;!?]{2,60})"),
)
_EN_FAVORITE = re.compile(r"(?i)\bmy\s+(?:all-time\s+)?fav(?:ou?rite)?\s+(?P<x>[\w\s]{2,20}?)\s+(?:is|are)\s+"
                          r"(?P<v>[^.;!?,]{1,40})")
_EN_HABIT = re.compile(r"(?i)\b(?:i|we)\s+(?P<adv>always|never|usually|often|normally|typically|regularly|rarely|"
                       r"seldom|generally)\s+(?P<verb>[a-z']+)|\bevery\s+(?:day|morning|night|evening|week|weekend|"
                       r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
                       r"|(?<=\w\s)(?:a|per)\s+(?:day|week|night)\b(?=\s*(?:[.,;!?]|$))")
_STYLE_EN: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("style/length", re.compile(r"(?i)\b(?:be\s+(?:more\s+)?(?:concise|brief|succinct)|keep\s+(?:it|(?:(?:your|ur|the)\s+)?"
                                r"(?:answers?|replies|responses|msgs|messages|texts))\s+(?:short|brief|concise|tight)|"
                                r"no\s+(?:essays|walls?\s+of\s+text|long\s+(?:answers|replies|paragraphs))|(?:shorter|brief|short)\s+"
                                r"(?:answers?|replies|responses)|less\s+verbose|get\s+to\s+the\s+point|"
                                r"(?:stop|don't)\s+(?:rambling|writing\s+essays))"), "User wants short, concise replies"),
    ("style/length", re.compile(r"(?i)\b(?:more\s+detail(?:ed)?|be\s+(?:more\s+)?detailed|in\s+(?:more\s+)?detail|"
                                r"longer\s+(?:answers?|replies))"), "User wants detailed replies"),
    ("style/language", re.compile(r"(?i)\b(?:reply|respond|answer|talk|write|speak|text)\s+(?:(?:to\s+)?me\s+)?(?:only\s+)?in\s+"
                                  r"(?P<v>english|chinese|mandarin|cantonese|japanese|korean|french|spanish|german)"),
     "User wants replies in {v}"),
    ("style/emoji", re.compile(r"(?i)\b(?:no|don't\s+use|do\s+not\s+use|stop\s+using|without|avoid|fewer|less)\s+"
                               r"(?:any\s+|the\s+)?emojis?\b"), "User doesn't want emojis in replies"),
    ("style/tone", re.compile(r"(?i)\b(?:don't|do\s+not|stop)\s+(?:lecturing|moralizing|preaching|sugarcoating|"
                              r"being\s+so\s+formal)|\bbe\s+more\s+(?:casual|formal|direct|friendly|funny)\b"),
     "User wants the assistant to {clause}"),
    ("style/format", re.compile(r"(?i)\b(?:use|format\w*|give\s+me|write|answer|reply|respond|keep|put|send)\b[^.!?]{0,25}?"
                                r"\b(?:bullet(?:s|\s+points?)|numbered\s+lists?|plain\s+text)\b|"
                                r"\bbullet(?:s|\s+points?)\s+(?:pls|please|only)\b|"
                                r"\b(?:no|without|don't\s+use|stop\s+using)\s+(?:lists|markdown|headers|headings|tables|bullet\s+points)\b"),
     "User wants the assistant to {clause}"),
    ("contact/channel", re.compile(r"(?i)\b(?:email|text|message|whatsapp|dm)\s+me\b|\b(?:don't|do\s+not|never)\s+"
                                   r"call\s+me\b|\bcontact\s+me\s+(?:by|via|through|on)\s+\w+"),
     "User's contact preference: {clause}"),
)


_CALLED = re.compile(r"(?i)^(?:a|an|the|this|that)\s+(?:[\w-]+\s+){1,3}?(?:called|named)\s+(?=[A-Z0-9])")


def _en_value(v: str) -> str:
    """The value up to the first conjunction or punctuation ("Boston and I love it" → Boston);
    a thing introduced with its name is that name ("this diner called Rosie's" → Rosie's)."""
    v = _CALLED.sub("", v.strip())
    return re.split(r"\s+(?:and|but|because|since|now|so|which|who|with)\b|(?<!\bSt)(?<!\bMt)(?<!\bFt)[.,;!?]", v.strip(),
                    maxsplit=1)[0].strip()  # St. Louis, Mt. Vernon


def _place(pattern: re.Pattern[str], text: str) -> str | None:
    """The place ``pattern`` names: capitalised or "a/the …" as written, a lowercase run only if it is a known place."""
    if not (m := pattern.search(text)):
        return None
    value = m.group("v")
    if value[:1].isupper() or re.match(r"(?:a|an|the)\s", value):
        return _en_value(value)
    known = place_at_start(re.split(r"[,;!?]", value, maxsplit=1)[0])
    return known[0] if known else None


def en_identity(text: str) -> list[Draft]:
    """Name, age, city (live / moved), hometown, job, employer."""
    out: list[Draft] = []
    if m := _EN_OTHERS_CALL_ME.search(text):  # a nickname in that relationship, not user/name
        out.append(fact(third_person(text.strip().rstrip(".!"), "en"), None, m.group("v")))
    for pattern in _EN_NAME if not out else ():
        if m := pattern.search(text):
            name = " ".join(w.capitalize() if w.islower() else w for w in m.group("v").split())
            if name.split()[0] not in EN_NAME_DENY:
                out.append(templated("User's name is {v}", "user/name", name, importance=0.8))
                break
    for pattern in _EN_AGE:
        if (m := pattern.search(text)) and 1 <= int(m.group("v")) <= 120:
            out.append(templated("User is {v} years old", "user/age", m.group("v")))
            break
    if place := _place(_EN_MOVE, text):
        out.append(templated("User moved to {v}", "user/city", place, importance=0.7))
    elif place := _place(_EN_LIVE, text) or place_now(text):
        out.append(templated("User lives in {v}", "user/city", place, importance=0.7))
    if place := _place(_EN_HOMETOWN, text):
        out.append(templated("User is from {v}", "user/hometown", place))
    for pattern in _EN_JOB:
        if m := pattern.search(text):
            job = re.sub(r"^(?:an?\s+)", "", m.group("v").strip(), flags=re.IGNORECASE)
            out.append(templated("User's job is {v}", "user/job", job))
            break
    else:
        if m := _EN_TEACH.search(text):  # "I teach English at a bilingual school": an English teacher
            out.append(templated("User's job is {v}", "user/job", f"{m.group('v')} teacher"))
    if m := _EN_EMPLOYER.search(text) or _EN_WORK_DONE_AT.search(text) or _EN_AT_WORKPLACE_NOW.search(text):
        out.append(templated("User works at {v}", "user/employer", _named_after(text, m) or _en_value(m.group("org"))))
    return out


#: a workplace said by a description only ("the new place", "my new job"), which the words after it may name
_EN_DESCRIBED = re.compile(r"(?i)^(?:the|my|a|this|that)\s+(?:new|old|other|next)?\s*(?:place|job|gig|company|firm|office|"
                           r"employer|workplace|one|clinic|practice|hospital|school|shop|store)$")
#: what names it right after: "— a private paediatric clinic in Islington", ", Harbourline Logistics."
_EN_APPOSITION = re.compile(r"^[^\S\n]*(?:[—–:]|--?|,)\s*(?P<v>(?:an?\s+|the\s+)?[\w&'][\w&' -]{2,60}?)"
                            r"(?=\s*(?:[.!;,()]|$|\s(?:and|but|so|now|from|starting|this|next|four|five|three|two)\b))")


def _named_after(text: str, m: re.Match[str]) -> str:
    """What an employer told by a description only is called by the words right after it ("Started at the new
    place this week — a private paediatric clinic in Islington" → private paediatric clinic in Islington), or ""."""
    value = _en_value(m.group("org"))
    if not _EN_DESCRIBED.match(value):
        return ""
    rest = text[m.start("org") + len(value):]
    rest = re.sub(r"(?i)^\s*(?:this|last|next)\s+(?:week|month|monday|tuesday|wednesday|thursday|friday)|^\s*(?:today|yesterday)",
                  "", rest)
    named = _EN_APPOSITION.match(rest)
    return re.sub(r"(?i)^(?:an?|the)\s+", "", named.group("v")).strip() if named else ""


def en_call_me(text: str) -> list[Draft]:
    """"Please call me Ben" (said to the assistant): a capitalised name only, so "call me back" is not one."""
    m = _EN_NAME[1].search(text)
    if m is None or not m.group("v")[:1].isupper() or m.group("v") in EN_NAME_DENY or _EN_OTHERS_CALL_ME.search(text):
        return []
    return [templated("User's name is {v}", "user/name", m.group("v"), importance=0.8)]


def en_diet(text: str) -> list[Draft]:
    """vegetarian / don't eat X / quit X, keyed by the object."""
    if m := _EN_VEG.search(text):
        diet = _DIET_WORD.get(m.group("v").lower(), m.group("v").lower())
        said = f"User eats {diet}" if diet in ("halal", "kosher") else f"User is {diet}"
        return [fact(said, "diet/type", diet, kind=Kind.PREFERENCE, importance=0.7)]
    if m := _EN_ANYMORE.search(text):
        item = m.group("v").strip()
        d = fact(f"User doesn't {m.group('verb').lower()} {item} anymore", f"pref/{pref_key_en(item)}", item,
                 kind=Kind.PREFERENCE, importance=0.7)
        d.ends_mention = pref_key_en(item)
        return [d]
    if m := _EN_LAPSED.search(text):  # "I haven't had bubble tea in a month": a habit that lapsed
        item = m.group("v").strip()
        d = fact(f"User hasn't {m.group('verb').lower()} {item} in {m.group('for')}", f"pref/{pref_key_en(item)}",
                 item, kind=Kind.PREFERENCE, importance=0.7)
        d.ends_mention = pref_key_en(item)
        return [d]
    if m := _EN_NO_EAT.search(text):
        item = m.group("v").strip()
        return [fact(f"User doesn't {m.group('verb').lower()} {item}", f"pref/{pref_key_en(item)}", item,
                      kind=Kind.PREFERENCE, importance=0.7)]
    if m := _EN_SWITCH_FROM.search(text):  # "I switched from coffee to green tea"
        item = m.group("v").strip().lower()
        d = fact(third_person(text[m.start():m.end()].strip(), "en"), f"pref/{pref_key_en(item)}", item,
                 kind=Kind.PREFERENCE, importance=0.7)
        d.ends_mention = pref_key_en(item)
        return [d]
    if (m := _EN_QUIT.search(text)) and HABIT_OBJECTS_EN.match(m.group("v").strip()):
        item = m.group("v").strip().lower()
        verb = "no longer" if "no longer" in m.group(0).lower() else "quit"
        d = fact(f"User {verb} {item}", f"pref/{pref_key_en(item)}", item, kind=Kind.PREFERENCE, importance=0.7)
        d.ends_mention = pref_key_en(item).removesuffix("ing") if item in ("smoking", "drinking") else pref_key_en(item)
        return [d]
    return []


def en_preference(text: str) -> list[Draft]:
    """favourite X is Y / love / hate / into X → a ``pref/…`` preference."""
    if m := _EN_FAVORITE.search(text):
        x, v = m.group("x").strip().lower(), m.group("v").strip()
        return [fact(f"User's favorite {x} is {v}", f"pref/favorite {x}", v, kind=Kind.PREFERENCE,
                      importance=0.6, template=f"User's favorite {x} is {{v}}")]
    for pattern in _EN_LIKE:
        m = pattern.search(text)
        if not m or re.match(r"(?i)(?:it|that|this|these|those|you|them|him|her|how|what|when|where|why|the\s+way|"
                             r"to\s+(?:think|say|know|hear|see))\b", m.group("v")):
            continue
        obj = _en_value(re.sub(r"(?i)^(?:to\s+|the\s+|a\s+|an\s+)", "", m.group("v")))
        if len(re.sub(r"[^A-Za-z]", "", obj)) < 3:
            continue  # "I love to."
        slot = f"pref/{pref_key_en(obj)}" if 0 < len(obj.split()) <= 3 else None
        content = third_person(text[m.start():].strip().rstrip(".!,"), "en")
        return [fact(content, slot, obj, kind=Kind.PREFERENCE, importance=0.6, confidence=0.85)]
    return []


#: what may follow a habit's verb and name nothing: a pronoun, then a reflexive or a filler
_ONLY_A_PRONOUN = re.compile(r"(?i)\s*(?:it|that|this|them|things|stuff)\b(?:\s+(?:myself|themselves|themself|haha|lol|"
                             r"lmao|tho|though|too|again|anyway))*[\s.!,~]*")


def en_habit(text: str) -> list[Draft]:
    """always / usually / every morning … → a behaviour with no date."""
    m = _EN_HABIT.search(text)
    if not m or (m.group("verb") and re.search(r"(?:ed|thought|knew|expected|imagined)$", m.group("verb") or "")):
        return []
    if m.group("verb") and _ONLY_A_PRONOUN.fullmatch(text[m.end():]):
        return []  # "I always forget it myself haha": done to something said elsewhere, nothing to keep
    if m.group("adv") is None:  # the last "I" before it, a word of its own (not the i of "khachapuri every day")
        start = max((i.start() for i in re.finditer(r"(?i)\bi\s", text[:m.start() + 2])), default=-1)
    else:
        start = m.start()
    content = third_person(text[max(start, 0):].strip().rstrip(".!,"), "en")
    if re.match(r"[a-z]+ing\b", content):  # "teaching at bright hill every day": the user's, said without "I"
        content = "User: " + content
    return [fact(content, None, "", kind=Kind.BEHAVIOR, importance=0.5, confidence=0.8)]


def style_slots_en(text: str) -> list[tuple[str, str]]:
    """``(slot, content)`` for each request about how the assistant should reply."""
    out: dict[str, str] = {}
    for slot, pattern, template in _STYLE_EN:
        if slot not in out and (m := pattern.search(text)):
            value = (m.groupdict().get("v") or "").capitalize()
            clause = re.sub(r"(?i)^(?:please|pls|can\s+you|could\s+you)\s+", "", text.strip().rstrip(".!"))
            clause = re.sub(r"(?i)^(?:don't|do\s+not)\s+", "not ", clause)
            out[slot] = template.format(v=value, clause=third_person(clause, "en"))
    return list(out.items())
