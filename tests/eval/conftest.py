"""Tiny synthetic evaluation sets in both schemas (LoCoMo and zh), a few turns and 3 questions each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

LOCOMO: list[dict[str, Any]] = [{
    "sample_id": "conv-t1",
    "conversation": {
        "speaker_a": "Caroline", "speaker_b": "Melanie",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Caroline", "dia_id": "D1:1", "text": "I adopted a black cat named Pepper last week."},
            {"speaker": "Melanie", "dia_id": "D1:2", "text": "So sweet! I spent the weekend painting a sunrise."},
            {"speaker": "Caroline", "dia_id": "D1:3", "text": "Look at this.", "img_url": ["x"],
             "blip_caption": "a photo of a violin on a wooden table"},
        ],
        "session_2_date_time": "10:37 am on 27 June, 2023",
        "session_2": [
            {"speaker": "Melanie", "dia_id": "D2:1", "text": "We went camping at the lake with the kids."},
            {"speaker": "Caroline", "dia_id": "D2:2", "text": "I started volunteering at the animal shelter."},
        ],
    },
    "qa": [
        {"question": "What is the name of Caroline's cat?", "answer": "Pepper", "evidence": ["D1:1"], "category": 4},
        {"question": "What instrument did Caroline show in a photo?", "answer": "violin",
         "evidence": ["D1:3; D2:2"], "category": 1},
        {"question": "What did Melanie adopt?", "adversarial_answer": "a cat", "evidence": ["D:1:1", "D9"],
         "category": 5},
    ],
}]

ZH: list[dict[str, Any]] = [{
    "sample_id": "zh-t1",
    "conversation": {
        "speaker_a": "林晓雯", "speaker_b": "小橙",
        "session_1_date_time": "2025-03-02 09:15",
        "session_1": [
            {"speaker": "林晓雯", "dia_id": "D1:1", "text": "我住在上海浦东，平时喜欢喝美式咖啡"},
            {"speaker": "小橙", "dia_id": "D1:2", "text": "好的亲，已经帮您记下收货地址在上海浦东"},
        ],
        "session_2_date_time": "2025-06-10 20:40",
        "session_2": [
            {"speaker": "林晓雯", "dia_id": "D2:1", "text": "我上个月搬到杭州西湖区了，地址要改一下"},
            {"speaker": "小橙", "dia_id": "D2:2", "text": "收到，收货地址已更新为杭州西湖区"},
        ],
    },
    "qa": [
        {"question": "用户现在住在哪个城市？", "answer": "杭州", "evidence": ["D2:1", "D1:1"],
         "category": "knowledge_update"},
        {"question": "用户喜欢喝什么咖啡？", "answer": "美式", "evidence": ["D1:1"], "category": "preference"},
        {"question": "用户的护照号码是多少？", "answer": "未提及", "evidence": [], "category": "abstention"},
    ],
}]


def write(path: Path, data: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    return write(tmp_path / "locomo_tiny.json", LOCOMO)


@pytest.fixture
def zh_file(tmp_path: Path) -> Path:
    return write(tmp_path / "zh_tiny.json", ZH)
