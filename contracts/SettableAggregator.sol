// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/**
 * A Chainlink-style price feed (AggregatorV3Interface plus the legacy AggregatorInterface that AaveOracle
 * reads) whose answer the devnet market simulator sets. Each `setAnswer` opens a new round.
 */
contract SettableAggregator {
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    address public owner;

    uint80 private _round;
    mapping(uint80 => int256) private _answers;
    mapping(uint80 => uint256) private _timestamps;

    error NotOwner(address caller);
    error NoData();

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    constructor(uint8 decimals_, string memory description_, int256 initialAnswer, address owner_) {
        decimals = decimals_;
        description = description_;
        owner = owner_;
        _set(initialAnswer);
    }

    function setAnswer(int256 answer) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _set(answer);
    }

    function transferOwnership(address newOwner) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        owner = newOwner;
    }

    function latestAnswer() external view returns (int256) {
        return _answers[_round];
    }

    function latestTimestamp() external view returns (uint256) {
        return _timestamps[_round];
    }

    function latestRound() external view returns (uint256) {
        return _round;
    }

    function getAnswer(uint256 roundId) external view returns (int256) {
        return _answers[uint80(roundId)];
    }

    function getTimestamp(uint256 roundId) external view returns (uint256) {
        return _timestamps[uint80(roundId)];
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (_round, _answers[_round], _timestamps[_round], _timestamps[_round], _round);
    }

    function getRoundData(uint80 roundId)
        external
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        if (_timestamps[roundId] == 0) revert NoData();
        return (roundId, _answers[roundId], _timestamps[roundId], _timestamps[roundId], roundId);
    }

    function _set(int256 answer) private {
        uint80 round = ++_round;
        _answers[round] = answer;
        _timestamps[round] = block.timestamp;
        emit NewRound(round, msg.sender, block.timestamp);
        emit AnswerUpdated(answer, round, block.timestamp);
    }
}
